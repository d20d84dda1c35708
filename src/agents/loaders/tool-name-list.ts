import { splitOutsideParentheses } from "../../text/split-outside-parentheses.ts";
import type { LoadContext } from "./load-context.ts";
import { MAX_TOOL_ENTRIES } from "./size-limits.ts";

/**
 * The names a `tools` or `disallowedTools` value lists, in every shape agent files write them: a comma
 * string, a YAML list, a list inside a string, and lists YAML or a damaged line split apart. What the
 * names grant or deny is tool-list.ts's.
 */

/**
 * `Read, Grep`, `[Read, Grep]`, a YAML list; commas inside `Task(a, b)` do not split. Returns undefined
 * (and fails the file) for a value that is not a list of names — a restriction we cannot read.
 */
export function readNameList(
  value: unknown,
  key: string,
  ctx: LoadContext,
  widensWhenDropped: boolean,
): string[] | undefined {
  if (value === undefined) return undefined;
  let names: string[];
  if (value === null) names = [];
  else if (typeof value === "string") names = splitNames(value);
  else if (Array.isArray(value)) {
    names = [];
    for (const item of rejoinArguments(value)) {
      if (typeof item === "string") {
        for (const name of splitNames(item)) names.push(name);
      } else if (widensWhenDropped) {
        // Dropping an entry of a deny list would give the agent the tool it was meant to lose.
        ctx.fail(`${key} holds something that is not a tool name (${preview(item)})`, key);
        return undefined;
      } else {
        ctx.report("warning", `${key} holds a non-name (${preview(item)})`, "ignored that entry", key);
      }
      if (names.length > MAX_TOOL_ENTRIES) break;
    }
  } else {
    ctx.fail(`${key} must be a comma-separated string or a list of tool names`, key);
    return undefined;
  }
  if (names.length > MAX_TOOL_ENTRIES) {
    ctx.fail(
      `${key} lists more than ${MAX_TOOL_ENTRIES} tools; agentry reads at most ${MAX_TOOL_ENTRIES}`,
      key,
    );
    return undefined;
  }
  return names;
}

/**
 * YAML's flow lists split `[Read, Task(explore, plan)]` at every comma: `Task(explore`, `plan)`. The
 * pieces of one tool's arguments are joined back, as its author wrote them.
 */
function rejoinArguments(items: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  let open: string | undefined;
  for (const item of items) {
    if (open !== undefined && typeof item === "string") {
      open = `${open}, ${item.trim()}`;
      if (depthOf(open) <= 0) {
        out.push(open);
        open = undefined;
      }
    } else if (typeof item === "string" && depthOf(item) > 0) open = item.trim();
    else {
      if (open !== undefined) out.push(open);
      open = undefined;
      out.push(item);
    }
  }
  if (open !== undefined) out.push(open);
  return out;
}

function depthOf(text: string): number {
  return (text.match(/\(/g)?.length ?? 0) - (text.match(/\)/g)?.length ?? 0);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function splitNames(text: string): string[] {
  const trimmed = text.trim();
  const inner = trimmed.startsWith("[") && trimmed.endsWith("]") ? trimmed.slice(1, -1) : trimmed;
  return splitOutsideParentheses(inner)
    .map((n) => n.trim().replace(/^["'[]+|["'\]]+$/g, ""))
    .flatMap((n) => (/\s/.test(n) && !n.includes("(") ? n.split(/\s+/) : [n]))
    .filter((n) => n !== "");
}

export function splitSpec(entry: string): { name: string; spec?: string } {
  const match = /^([^()]+)\((.*)\)$/.exec(entry.trim());
  if (match === null) return { name: entry.trim() };
  return { name: (match[1] ?? "").trim(), spec: (match[2] ?? "").trim() };
}
