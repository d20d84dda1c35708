import { isToolHidden } from "../../permissions/derive.ts";
import type { Ruleset } from "../../permissions/types.ts";
import { wildcardMatch } from "../../permissions/wildcard.ts";
import type { Draft, LoadContext } from "./load-context.ts";

/**
 * Tools that have no permission of their own here: they ask another one for each path they reach.
 * OpenCode files give `grep`, `glob` and `list` permissions of their own (and some write `write`,
 * which OpenCode's write tool does not ask either); a rule under such a name would never be consulted.
 */
const ASKS_INSTEAD: Readonly<Record<string, { permission: string; reaches: string }>> = {
  grep: { permission: "read", reaches: "searches" },
  glob: { permission: "read", reaches: "lists" },
  list: { permission: "read", reaches: "lists" },
  write: { permission: "edit", reaches: "writes" },
};

/**
 * A file's rules that name one of those tools limit the tool, or fail the file: a rule that denies the
 * tool everywhere (the last blanket rule matching it, with nothing after that lets it back) removes the
 * tool; rules that allow it everywhere add nothing; anything else — an `ask`, patterns — is a limit
 * the tool cannot follow. Returns false when the file failed.
 */
export function limitToolsNamedInRules(rules: Ruleset, draft: Draft, ctx: LoadContext, key: string): boolean {
  for (const [tool, { permission, reaches }] of Object.entries(ASKS_INSTEAD)) {
    if (!rules.some((rule) => rule.permission === tool)) continue;
    if (isToolHidden(rules, tool)) {
      draft.disallowedTools = [...new Set([...(draft.disallowedTools ?? []), tool])];
      ctx.report(
        "info",
        `${key}: ${tool} is denied everywhere`,
        `removed the ${tool} tool (it asks ${permission} for each path it ${reaches})`,
        key,
      );
      continue;
    }
    const matching = rules.filter((rule) => wildcardMatch(rule.permission, tool));
    const blanket = matching.findLastIndex((rule) => rule.pattern === "*");
    const allowedEverywhere =
      blanket !== -1 && matching.slice(blanket).every((rule) => rule.action === "allow");
    if (allowedEverywhere) continue;
    ctx.fail(
      `${key}: the rules for ${tool} cannot limit agentry's ${tool} tool, which has no permission of its own: it asks ${permission} for each path it ${reaches}. Write them as ${permission} rules on paths, or deny ${tool} outright`,
      key,
    );
    return false;
  }
  return true;
}
