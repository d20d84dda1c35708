import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { AgentryError } from "../errors/agentry-error.ts";

/** The shortest key accepted: 32 characters (`openssl rand -hex 32` gives 64). */
export const MIN_FLEET_KEY_LENGTH = 32;

/** What a signature covers besides the value: a job, an entry of its mailbox, or its result. */
export type SignedKind = "job" | "entry" | "result";

/**
 * The key a fleet's parents and workers share (`AGENTRY_FLEET_KEY`): whoever can write to Redis but
 * does not hold it can make no work — a worker with a key runs only jobs a parent signed with it, and
 * reads only mailbox entries signed for that job; a parent with a key reads only results signed for
 * its job. A signature is HMAC-SHA256 over the kind, the queue, the job id and the value's canonical
 * JSON (keys sorted), so it cannot be moved to another job or used as another kind.
 */
export class FleetKey {
  readonly #secret: Buffer;

  constructor(secret: string) {
    if (secret.length < MIN_FLEET_KEY_LENGTH)
      throw new FleetKeyError(
        `The fleet key is ${secret.length} characters long; use at least ${MIN_FLEET_KEY_LENGTH} (e.g. \`openssl rand -hex 32\`).`,
      );
    this.#secret = Buffer.from(secret, "utf8");
  }

  /** `value` with its signature added (`sig`). */
  sign<T extends object>(kind: SignedKind, scope: JobScope, value: T): T & { sig: string } {
    return { ...value, sig: this.#mac(kind, scope, value) };
  }

  /** Whether `value` (as it arrived, `sig` included) carries a good signature for this job. */
  verify(kind: SignedKind, scope: JobScope, value: unknown): boolean {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
    const { sig, ...rest } = value as Record<string, unknown>;
    if (typeof sig !== "string" || !/^[0-9a-f]{64}$/.test(sig)) return false;
    return timingSafeEqual(Buffer.from(sig, "hex"), Buffer.from(this.#mac(kind, scope, rest), "hex"));
  }

  #mac(kind: SignedKind, scope: JobScope, value: object): string {
    const { sig: _ignored, ...rest } = value as Record<string, unknown>;
    return createHmac("sha256", this.#secret)
      .update(`agentry-fleet-v1\n${kind}\n${scope.queue}\n${scope.jobId}\n${canonicalJson(rest)}`)
      .digest("hex");
  }
}

/** Which job a signature is for. */
export interface JobScope {
  queue: string;
  jobId: string;
}

export class FleetKeyError extends AgentryError {
  override readonly name = "FleetKeyError";
  readonly kind = "user";
}

/**
 * The fleet's key from the environment: `AGENTRY_FLEET_KEY` (the key), else `AGENTRY_FLEET_KEY_FILE`
 * (a file holding it, for secrets mounted as files); undefined when neither is set. A key that is too
 * short or a file that cannot be read is an error, never "no key".
 */
export function fleetKeyFromEnv(env: Readonly<Record<string, string | undefined>>): FleetKey | undefined {
  const direct = env.AGENTRY_FLEET_KEY;
  if (direct !== undefined && direct !== "") return new FleetKey(direct.trim());
  const file = env.AGENTRY_FLEET_KEY_FILE;
  if (file === undefined || file === "") return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new FleetKeyError(
      `Cannot read the fleet key file ${file} (AGENTRY_FLEET_KEY_FILE): ${(error as Error).message}`,
    );
  }
  return new FleetKey(text.trim());
}

/** JSON with every object's keys sorted, so both sides sign the same bytes whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
