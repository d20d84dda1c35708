import {
  currentProcess,
  formatIdentity,
  type Liveness,
  type ProcessIdentity,
  parseIdentity,
  processLiveness,
} from "../state/process-identity.ts";

/**
 * A task's owner is the process running it: `<hostname>:<pid>`, plus on Linux its boot, pid namespace
 * and start time (`host:4242/b=83d78c6d,ns=4026531836,t=123456`), so another process can tell a live
 * owner from a dead one even across containers that share the hostname, and never mistakes a reused
 * pid for the owner. When it cannot tell (another host, another namespace), heartbeat silence decides.
 */
export function currentOwner(): string {
  return formatIdentity(currentProcess());
}

/** Host and pid (and the Linux fields when present) of an owner string; undefined when unreadable. */
export function parseOwner(owner: string): ProcessIdentity | undefined {
  return parseIdentity(owner);
}

/** `unknown`: another host or namespace, or an owner string this code cannot parse. */
export type OwnerLiveness = Liveness;

export function ownerLiveness(owner: string, me: ProcessIdentity = currentProcess()): OwnerLiveness {
  const parsed = parseIdentity(owner);
  return parsed ? processLiveness(parsed, me) : "unknown";
}
