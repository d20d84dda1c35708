import { formatTokens } from "../../render/agent-tree-view.ts";
import type { Style } from "../../render/style.ts";
import type { DemoResult } from "./run-demo.ts";

const count = (n: number) => n.toLocaleString("en-US");

/** The closing lines of `agentry demo`: what the children read against what the parent kept. */
export function demoReport(result: DemoResult, style: Style): string {
  const { context: c } = result;
  const children = result.children.length;
  const read = count(c.childrenToolResultChars);
  const kept = count(c.parentKeptChars).padStart(read.length);
  const lines = [
    style.bold("What delegation saved the parent's context"),
    `  the ${children} children read        ${read} characters (≈ ${formatTokens(c.childrenToolResultTokens)} tokens) in ${c.childrenToolCalls} tool calls`,
    `  the parent's context kept  ${kept} characters (≈ ${formatTokens(c.parentKeptTokens)} tokens): their ${children} reports`,
    style.green(
      `  → ${c.ratio}× less. Each later turn of the parent re-sends ≈ ${formatTokens(c.parentKeptTokens)} tokens, not ≈ ${formatTokens(c.childrenToolResultTokens)};`,
    ),
    style.green(
      `    the children's own ${c.childrenModelCalls} model calls used ≈ ${formatTokens(c.childrenInputTokens)} input tokens.`,
    ),
    style.dim("  Tokens are estimated as characters / 4. The model is scripted; the tools,"),
    style.dim("  the files and the subagents are real."),
  ];
  return `${lines.join("\n")}\n`;
}

/** `--output-format json`: the numbers, the children and the answer, for scripts and tests. */
export function demoJson(result: DemoResult, workspace: string | undefined, durationMs: number): string {
  return `${JSON.stringify({
    status: result.outcome.status,
    ...(result.outcome.status === "error" ? { error: result.outcome.error } : {}),
    durationMs,
    ...(workspace === undefined ? {} : { workspace }),
    sessionId: result.sessionId,
    maxConcurrentChildren: result.maxConcurrentChildren,
    children: result.children,
    context: result.context,
    answer: result.answer,
  })}\n`;
}
