/**
 * A setting a project file holds that agentry did not apply. `untrusted`: it would widen what agentry
 * does (code that runs, allows, endpoints, larger limits), so it waits until the user trusts the
 * folder (`agentry trust`). `never`: no project may set it, trusted or not (where the user's keys go,
 * the fleet, leaving the OS sandbox).
 */
export interface Withheld {
  /** The file, as messages name it (`agentry.json`, `.claude/agents/x.md`). */
  source: string;
  /** What it is, for a person: `MCP server "helper"`, `permission bash 'make *' allow`, `providers.anthropic`. */
  setting: string;
  kind: "untrusted" | "never";
  /** The value as written: part of the folder's trust hash (a new value asks again). */
  value: unknown;
  /** Why a `never` setting is refused, and where the user may set it instead. */
  reason?: string;
}

/** `2 MCP servers, 1 allow rule` — a short count of what was withheld, for one line on stderr. */
export function summarizeWithheld(items: readonly Withheld[]): string {
  const bySource = new Map<string, Withheld[]>();
  for (const item of items) bySource.set(item.source, [...(bySource.get(item.source) ?? []), item]);
  return [...bySource]
    .map(([source, list]) => `${source} (${list.map((item) => item.setting).join(", ")})`)
    .join("; ");
}
