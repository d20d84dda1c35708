/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1), plus the proxy's own:
 * a proxy removes them before passing a message on. `proxy-authorization` is meant for this proxy and
 * must not reach the origin.
 */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/**
 * The headers to pass on, from `rawHeaders` (name, value, name, value …), in the same flat form:
 * without the hop-by-hop ones and those the `Connection` header names. With `host`, the `Host` header is
 * set to it (the authority of the absolute URI, which a proxy must use over the client's `Host`).
 */
export function forwardedHeaders(rawHeaders: readonly string[], host?: string): string[] {
  const named = new Set<string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() !== "connection") continue;
    for (const token of rawHeaders[i + 1]?.split(",") ?? []) named.add(token.trim().toLowerCase());
  }
  const kept: string[] = host === undefined ? [] : ["Host", host];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] ?? "";
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower) || (host !== undefined && lower === "host")) continue;
    kept.push(name, rawHeaders[i + 1] ?? "");
  }
  return kept;
}
