/** Where a card is under an agent's URL, and at a server's root (A2A's recommended place). */
export const CARD_PATH = "/.well-known/agent-card.json";

/** What a request's path asks for on `agentry serve`. */
export type ServedPath =
  /** The root card: the default agent's, listing the others. */
  | { kind: "root-card" }
  /** One agent's card. */
  | { kind: "card"; agent: string }
  /** One agent's JSON-RPC endpoint. */
  | { kind: "rpc"; agent: string }
  /**
   * The card an agent URL without its trailing `/` leads a resolver to (`/agents/` + the card): the
   * SDK's `createFromUrl("…/agents/explore")` asks here. Which agent was meant cannot be told.
   */
  | { kind: "card-without-agent" }
  | { kind: "unknown" };

/**
 * Reads a request's path: the root card, and each agent at `/agents/<name>/` (with or without the
 * trailing `/`), its card under it. The printed URLs end in `/`, so that a card resolver that takes
 * the card's path relative to them (the SDK's, per RFC 3986) finds the agent's own card.
 */
export function servedPath(pathname: string): ServedPath {
  if (pathname === CARD_PATH) return { kind: "root-card" };
  if (pathname === `/agents${CARD_PATH}`) return { kind: "card-without-agent" };
  const match = /^\/agents\/([^/]+)(\/|\/\.well-known\/agent-card\.json)?$/.exec(pathname);
  if (match === null) return { kind: "unknown" };
  let agent: string;
  try {
    agent = decodeURIComponent(match[1] ?? "");
  } catch {
    return { kind: "unknown" };
  }
  return match[2] === CARD_PATH ? { kind: "card", agent } : { kind: "rpc", agent };
}

/** The URL of agent `name` on the server at `base` (`http://host:port`): it ends in `/`. */
export function servedAgentUrl(base: string, name: string): string {
  return `${base}/agents/${encodeURIComponent(name)}/`;
}
