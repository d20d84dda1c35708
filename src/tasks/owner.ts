import { hostname } from "node:os";

/**
 * A task's owner is the process running it, named `<hostname>:<pid>`. Another process on the same
 * host can ask the kernel whether that pid lives; for other hosts only heartbeat silence tells.
 */
export function currentOwner(): string {
  return `${hostname()}:${process.pid}`;
}

export function parseOwner(owner: string): { host: string; pid: number } | undefined {
  const colon = owner.lastIndexOf(":");
  if (colon <= 0) return undefined;
  const pid = Number(owner.slice(colon + 1));
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  return { host: owner.slice(0, colon), pid };
}

/** `unknown`: another host, or an owner string this code cannot parse. */
export type OwnerLiveness = "alive" | "dead" | "unknown";

export function ownerLiveness(owner: string, localHost: string = hostname()): OwnerLiveness {
  const parsed = parseOwner(owner);
  if (!parsed || parsed.host !== localHost) return "unknown";
  if (parsed.pid === process.pid) return "alive";
  try {
    // Signal 0 checks existence only. pid must be > 0: 0 and negatives address process groups.
    process.kill(parsed.pid, 0);
    return "alive";
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM" ? "alive" : "dead";
  }
}
