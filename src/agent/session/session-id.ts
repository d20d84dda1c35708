import { randomBytes } from "node:crypto";
import { AgentryError } from "../../errors/agentry-error.ts";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const VALID_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * A sortable, unique session id: `<yyyymmdd-hhmmss>-<random6>` (UTC), e.g. `20250114-093012-k3f9qa`.
 * Children pass `prefix: "sub"` to get `sub-…`, recognisable as a child's.
 */
export function newSessionId(options: { prefix?: string; now?: Date } = {}): string {
  const now = options.now ?? new Date();
  const pad = (n: number) => String(n).padStart(2, "0");
  const stamp =
    `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}-` +
    `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  const random = Array.from(randomBytes(6), (byte) => ALPHABET[byte % ALPHABET.length]).join("");
  const id = `${stamp}-${random}`;
  return options.prefix ? `${options.prefix}-${id}` : id;
}

/** Ids name files, so they must not contain path separators or start with a dot. */
export function isValidSessionId(id: string): boolean {
  return VALID_ID.test(id);
}

export class InvalidSessionIdError extends AgentryError {
  override readonly name = "InvalidSessionIdError";
  readonly kind = "user";
  constructor(id: string) {
    super(
      `Invalid session id ${JSON.stringify(id)}: use letters, digits, ".", "_" and "-" only ` +
        "(at most 128 characters, not starting with a dot or dash).",
    );
  }
}
