import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { UsageError } from "./errors.ts";

/** Where `agentry serve` reads its bearer token. */
export const SERVE_TOKEN_ENV = "AGENTRY_SERVE_TOKEN";
/** Where `agentry ui` reads its token. */
export const UI_TOKEN_ENV = "AGENTRY_UI_TOKEN";

/** Shorter tokens are refused: they can be guessed. */
const MIN_TOKEN_LENGTH = 16;

/** The servers that take a bearer token: the variable each reads it from, and who is to be given it. */
const LISTENERS = {
  serve: { variable: SERVE_TOKEN_ENV, command: "agentry serve", who: "the clients" },
  ui: { variable: UI_TOKEN_ENV, command: "agentry ui", who: "the people who may see the page" },
} as const;

/**
 * The bearer token a server requires (`agentry serve`, `agentry ui`, each its own variable): the
 * variable's, else one generated for this start (printed once, so a client on this machine can use
 * it). Binding an address other than loopback without a token of one's own is refused: a token
 * printed to a terminal is not a secret to share.
 */
export function listenerToken(
  host: string,
  env: Readonly<Record<string, string | undefined>>,
  listener: keyof typeof LISTENERS,
): { token: string; generated: boolean } {
  const { variable, command, who } = LISTENERS[listener];
  const configured = env[variable];
  if (configured !== undefined && configured !== "") {
    if (configured.length < MIN_TOKEN_LENGTH || /\s/.test(configured))
      throw new UsageError(
        `${variable} must be at least ${MIN_TOKEN_LENGTH} characters without spaces (e.g. openssl rand -hex 32).`,
      );
    return { token: configured, generated: false };
  }
  if (!isLoopback(host))
    throw new UsageError(
      `${command} refuses to listen on ${host} without a token: set ${variable} (e.g. to $(openssl rand -hex 32)) and give it to ${who}, or keep the default --host 127.0.0.1.`,
    );
  return { token: randomBytes(24).toString("base64url"), generated: true };
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "");
  if (bare === "localhost") return true;
  if (isIP(bare) === 4) return bare.startsWith("127.");
  return bare === "::1" || bare === "::ffff:127.0.0.1";
}
