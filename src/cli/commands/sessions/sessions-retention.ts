import { join } from "node:path";
import { stateDir } from "../../../state/state-dir.ts";
import { type Env, loadConfigFiles } from "../../config/load-config.ts";
import { UsageError } from "../../errors.ts";

/** What a prune removes: what was last active longer ago than `olderThanMs`, and what is past the newest `keep`. */
export interface PruneRules {
  olderThanMs?: number;
  keep?: number;
  /** Where the rules came from, for the output: the flags, or the user's `retention` setting. */
  source: string;
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `30d`, `12h`, `90m`, `2w` in milliseconds; `UsageError` otherwise. */
export function parseAge(text: string): number {
  const match = /^(\d+)([mhdw])$/.exec(text.trim());
  const amount = Number(match?.[1]);
  const unit = UNITS[match?.[2] ?? ""];
  if (match === null || unit === undefined || !Number.isSafeInteger(amount) || amount <= 0)
    throw new UsageError(
      `--older-than ${JSON.stringify(text)}: give an age such as 30d, 12h, 90m or 2w (minutes, hours, days, weeks).`,
    );
  return amount * unit;
}

/**
 * The rules of `agentry sessions prune` / `tasks prune`: the flags when any is given, else the user's
 * `retention` setting (never a project's: a repository does not decide what is deleted). Neither is
 * a `UsageError`: a prune without rules would remove everything or nothing.
 */
export async function pruneRules(
  flags: { olderThan?: string; keep?: number },
  what: "sessions" | "tasks",
  workspace: string,
  env: Env,
): Promise<PruneRules> {
  if (flags.olderThan !== undefined || flags.keep !== undefined)
    return {
      ...(flags.olderThan === undefined ? {} : { olderThanMs: parseAge(flags.olderThan) }),
      ...(flags.keep === undefined ? {} : { keep: flags.keep }),
      source: "the flags",
    };
  const loaded = await loadConfigFiles({ workspace, env });
  const retention = loaded.user?.config.retention;
  const keep = what === "sessions" ? retention?.maxSessions : retention?.maxTasks;
  if (retention?.maxAgeDays === undefined && keep === undefined)
    throw new UsageError(
      `say what to prune: --older-than <age> (e.g. 30d) and/or --keep <n>, or set retention in your user config (${loaded.user?.path ?? "~/.config/agentry/config.json"}): {"retention": {"maxAgeDays": 30, "max${what === "sessions" ? "Sessions" : "Tasks"}": 100}}.`,
    );
  return {
    ...(retention?.maxAgeDays === undefined ? {} : { olderThanMs: retention.maxAgeDays * UNITS.d! }),
    ...(keep === undefined ? {} : { keep }),
    source: `retention in ${loaded.user?.label ?? "your user config"}`,
  };
}

/** Whether the rules take something last active at `activeAt`, ranked `rank` (0 = newest). */
export function pruned(rules: PruneRules, activeAt: number, rank: number, now: number): boolean {
  const old = rules.olderThanMs !== undefined && now - activeAt > rules.olderThanMs;
  const beyond = rules.keep !== undefined && rank >= rules.keep;
  return old || beyond;
}

/** `.agentry/kept-sessions.json`: the sessions `agentry sessions keep` marked, which no prune removes. */
export function keptSessionsPath(workspace: string): string {
  return join(stateDir(workspace), "kept-sessions.json");
}
