import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The cookie that carries the token after the first visit. */
export const COOKIE = "agentry_ui";

/** How a request proved it may see the page: `token-in-url` is the first visit (answered with the cookie). */
export type Access = "cookie" | "bearer" | "token-in-url" | "refused";

/**
 * Whether a request carries the token: in the cookie, as `Authorization: Bearer`, or (a GET of the
 * page, the address `agentry ui` printed) as `?token=`. Compared in constant time.
 */
export function checkAccess(request: IncomingMessage, url: URL, token: string): Access {
  const bearer = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
  if (bearer !== undefined && same(bearer, token)) return "bearer";
  const cookie = cookieValue(request.headers.cookie, COOKIE);
  if (cookie !== undefined && same(cookie, token)) return "cookie";
  const query = url.searchParams.get("token");
  if (request.method === "GET" && url.pathname === "/" && query !== null && same(query, token))
    return "token-in-url";
  return "refused";
}

/** The cookie: not readable by scripts, never sent from another site (so no other page can post an action). */
export function grantCookie(token: string): string {
  return `${COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) {
      try {
        return decodeURIComponent(value.join("="));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function same(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
