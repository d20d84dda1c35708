import type { AgentCard } from "@a2a-js/sdk";
import { DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import { errorMessage } from "../../text/error-message.ts";
import { RemoteAgentError } from "../remote-errors.ts";

/** The well-known place of an agent's card under its URL (A2A v1.0 and v0.3 alike). */
export const AGENT_CARD_PATH = ".well-known/agent-card.json";

/**
 * Where the card of the agent at `url` is: `<url>/.well-known/agent-card.json`, or `url` itself when
 * it names a `.json` file. (The SDK resolves the path relative to the URL, which drops its last
 * segment unless it ends in `/`; an agent file writes `https://host/agents/review`.)
 */
export function agentCardUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.pathname.endsWith(".json")) return parsed.href;
  if (!parsed.pathname.endsWith("/")) parsed.pathname += "/";
  return new URL(AGENT_CARD_PATH, parsed).href;
}

/** Reads v1.0 cards, and v0.3 ones translated to v1.0 (their interfaces marked `protocolVersion: 0.3`). */
const resolver = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } });

/**
 * Fetches and reads the card of the agent at `url` through `fetchImpl` (which adds its headers and
 * bounds the wait). Throws `RemoteAgentError` for anything that is not a usable card.
 */
export async function fetchAgentCard(
  url: string,
  fetchImpl: typeof fetch,
  timeoutMs: number,
): Promise<AgentCard> {
  const where = agentCardUrl(url);
  const response = await fetchImpl(where, {
    headers: { "A2A-Version": "1.0", accept: "application/json" },
    signal: AbortSignal.timeout(timeoutMs),
  });
  let raw: unknown;
  try {
    raw = await response.json();
  } catch (error) {
    throw new RemoteAgentError(`the agent card at ${where} is not JSON`, "system", { cause: error });
  }
  let card: AgentCard;
  try {
    card = resolver.normalizeAgentCard(raw);
  } catch (error) {
    throw new RemoteAgentError(
      `the agent card at ${where} cannot be read: ${errorMessage(error)}`,
      "system",
      { cause: error },
    );
  }
  if (
    typeof card?.name !== "string" ||
    !Array.isArray(card.supportedInterfaces) ||
    card.supportedInterfaces.length === 0
  )
    throw new RemoteAgentError(
      `the agent card at ${where} is not an A2A agent card (it needs a name and at least one interface to call)`,
    );
  return card;
}

/** One line about an agent from its card: its description, else its name. */
export function cardDescription(card: AgentCard): string {
  const description = typeof card.description === "string" ? card.description.trim() : "";
  return description !== "" ? description : card.name;
}
