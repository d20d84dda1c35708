import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { orUndefined } from "./or-undefined.ts";

/**
 * Who a process is, precisely enough for another process to tell whether it still runs. A pid alone
 * is not: pids are reused, a container with host networking shares the hostname but not the pid
 * namespace, and a reboot restarts the numbering. On Linux the boot id, the pid namespace and the
 * process's start time (clock ticks since boot) pin one process; elsewhere only host and pid are known.
 */
export interface ProcessIdentity {
  host: string;
  pid: number;
  /** The first 8 characters of `/proc/sys/kernel/random/boot_id`. */
  boot?: string;
  /** The inode of the pid namespace (`/proc/self/ns/pid` → `pid:[4026531836]`). */
  pidNamespace?: string;
  /** Field 22 of `/proc/<pid>/stat`: when the process started, in clock ticks since boot. */
  startTime?: string;
}

/** `alive` and `dead` are facts checked on this machine; `unknown` means only silence can tell. */
export type Liveness = "alive" | "dead" | "unknown";

let self: ProcessIdentity | undefined;

/** This process (computed once). */
export function currentProcess(): ProcessIdentity {
  if (self) return self;
  const identity: ProcessIdentity = { host: hostname(), pid: process.pid };
  const boot = readText("/proc/sys/kernel/random/boot_id")?.trim().slice(0, 8);
  const namespace = /\[(\d+)\]/.exec(readLink("/proc/self/ns/pid") ?? "")?.[1];
  const startTime = procStat(process.pid)?.startTime;
  if (boot) identity.boot = boot;
  if (namespace) identity.pidNamespace = namespace;
  if (startTime) identity.startTime = startTime;
  self = identity;
  return identity;
}

/** Another process of this machine and pid namespace, by pid (no start time once it has exited). */
export function localProcess(pid: number): ProcessIdentity {
  const { startTime: _, ...machine } = currentProcess();
  const startTime = procStat(pid)?.startTime;
  return startTime === undefined ? { ...machine, pid } : { ...machine, pid, startTime };
}

/**
 * `host:pid`, followed on Linux by `/b=<boot>,ns=<pid namespace>,t=<start time>`. Older readers,
 * which expect `host:pid`, cannot parse the pid out of it and fall back to heartbeat silence.
 */
export function formatIdentity(identity: ProcessIdentity): string {
  const extra = [
    identity.boot === undefined ? "" : `b=${identity.boot}`,
    identity.pidNamespace === undefined ? "" : `ns=${identity.pidNamespace}`,
    identity.startTime === undefined ? "" : `t=${identity.startTime}`,
  ].filter(Boolean);
  return `${identity.host}:${identity.pid}${extra.length > 0 ? `/${extra.join(",")}` : ""}`;
}

/** The inverse of `formatIdentity`; also reads the older `host:pid`. Undefined for anything else. */
export function parseIdentity(text: string): ProcessIdentity | undefined {
  const slash = text.indexOf("/");
  const base = slash === -1 ? text : text.slice(0, slash);
  const colon = base.lastIndexOf(":");
  if (colon <= 0) return undefined;
  const pid = Number(base.slice(colon + 1));
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  const identity: ProcessIdentity = { host: base.slice(0, colon), pid };
  if (slash === -1) return identity;
  for (const pair of text.slice(slash + 1).split(",")) {
    const [key, value] = pair.split("=");
    if (!value) continue;
    if (key === "b") identity.boot = value;
    else if (key === "ns") identity.pidNamespace = value;
    else if (key === "t") identity.startTime = value;
  }
  return identity;
}

/** `host:pid`, for people. */
export function identityLabel(text: string): string {
  const slash = text.indexOf("/");
  return slash === -1 ? text : text.slice(0, slash);
}

/**
 * Whether the process `identity` names runs, judged from this process. `dead` only when this machine
 * can prove it: same host, same boot, same pid namespace, and no process with that pid and start time.
 * Another host or boot, another namespace, or an identity without the Linux fields where we have them
 * (an older agentry's `host:pid`, which may come from another namespace) are `unknown`: never judged
 * dead on a guess.
 */
export function processLiveness(identity: ProcessIdentity, me: ProcessIdentity = currentProcess()): Liveness {
  if (identity.host !== me.host) return "unknown";
  if (differ(identity.boot, me.boot) || differ(identity.pidNamespace, me.pidNamespace)) return "unknown";
  const linux = me.pidNamespace !== undefined;
  if (linux && (identity.pidNamespace === undefined || identity.boot === undefined)) return "unknown";
  if (linux) {
    const stat = procStat(identity.pid);
    if (!stat || stat.state === "Z" || stat.state === "X") return "dead";
    if (identity.startTime !== undefined && stat.startTime !== identity.startTime) return "dead";
    return "alive";
  }
  if (identity.pid === me.pid) return "alive";
  try {
    // Signal 0 checks existence only. pid must be > 0: 0 and negatives address process groups.
    process.kill(identity.pid, 0);
    return "alive";
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM" ? "alive" : "dead";
  }
}

/** Both known and different. */
function differ(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a !== b;
}

function procStat(pid: number): { state: string; startTime: string } | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // The command name (field 2) may hold spaces and parentheses: fields are counted after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : undefined;
}

function readText(path: string): string | undefined {
  return orUndefined(() => readFileSync(path, "utf8"));
}

function readLink(path: string): string | undefined {
  return orUndefined(() => readlinkSync(path));
}
