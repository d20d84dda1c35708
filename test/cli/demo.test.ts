import { mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTranscript } from "../../src/agent/session/transcript.ts";
import { type DemoResult, runDemo } from "../../src/cli/commands/demo/run-demo.ts";
import { SAMPLE_REPO } from "../../src/cli/commands/demo/sample-repo.ts";
import { removeLater, tempDir } from "../support/temp-dir.ts";
import { runCli } from "./support/cli-process.ts";

const lineCount = (path: string) => (SAMPLE_REPO[path] ?? "").split("\n").length - 1;
/** 1-based line of the first line of `path` that contains `text`. */
const lineOf = (path: string, text: string) =>
  (SAMPLE_REPO[path] ?? "").split("\n").findIndex((line) => line.includes(text)) + 1;

function expectDelegationWorked(result: Pick<DemoResult, "children" | "maxConcurrentChildren" | "context">) {
  expect(result.children.map((child) => [child.agentType, child.status])).toEqual([
    ["explore", "completed"],
    ["explore", "completed"],
    ["explore", "completed"],
  ]);
  // All three ran at once: each started before any of them ended.
  expect(result.maxConcurrentChildren).toBe(3);
  const lastStart = Math.max(...result.children.map((child) => child.startedAt));
  const firstEnd = Math.min(...result.children.map((child) => child.endedAt));
  expect(lastStart).toBeLessThan(firstEnd);
  for (const child of result.children) {
    expect(child.toolCalls.length).toBeGreaterThanOrEqual(2);
    expect(child.toolCalls.every((call) => ["read", "grep", "glob", "list"].includes(call.name))).toBe(true);
    expect(child.toolCalls.filter((call) => call.isError)).toEqual([]);
    expect(child.toolResultChars).toBeGreaterThan(500);
  }
  const { context } = result;
  expect(context.childrenToolResultChars).toBeGreaterThan(3 * context.parentKeptChars);
  expect(context.childrenInputTokens).toBeGreaterThan(10 * context.parentKeptTokens);
  expect(context.parentKeptTokens).toBe(Math.ceil(context.parentKeptChars / 4));
}

describe("agentry demo", () => {
  it("runs three explore children concurrently on the sample repository with the real tools", async () => {
    const workspace = await tempDir();
    const result = await runDemo({ workspace, paceMs: 60 });
    expect(result.outcome.status).toBe("completed");
    expectDelegationWorked(result);
    expect(result.children.map((child) => child.description)).toEqual([
      "map the source layout",
      "find how tests are run",
      "find TODO/FIXME and the bug",
    ]);
    // The parent's context holds the wrapped reports and nothing the children read.
    const transcript = await readTranscript(
      join(workspace, ".agentry", "sessions", `${result.sessionId}.jsonl`),
    );
    const kept = JSON.stringify(transcript.entries);
    expect(kept).toContain("<task_result");
    expect(kept).not.toContain("export class Cart");
    expect(result.context.parentKeptChars).toBeGreaterThan(500);
  });

  it("answers from what the tools returned: real line counts, markers and the bug's line", async () => {
    const { answer } = await runDemo({ workspace: await tempDir(), paceMs: 0 });
    for (const path of ["src/cart.ts", "src/discount.ts", "src/money.ts", "src/shipping.ts"]) {
      expect(answer).toContain(`- ${path} (${lineCount(path)} lines)`);
    }
    const fixme = lineOf("src/discount.ts", "FIXME");
    expect(answer).toContain(`FIXME src/discount.ts:${fixme}`);
    expect(answer).toContain(`src/discount.ts:${fixme + 1} tests \`if (itemCount > discount.minItems)\``);
    expect(answer).toContain(
      `\`npm test\` runs \`vitest run\` (package.json:${lineOf("package.json", '"test"')})`,
    );
    expect(answer).toContain(`src/money.ts:${lineOf("src/money.ts", "TODO")} TODO: support currencies`);
  });

  it("reports files it was not written for, so its answers are not canned", async () => {
    const workspace = await tempDir();
    await mkdir(join(workspace, "src"));
    await writeFile(
      join(workspace, "src", "tax.ts"),
      "// TODO: VAT for Europe\nexport function tax(amount: number): number {\n  return amount;\n}\n",
    );
    const { answer } = await runDemo({ workspace, paceMs: 0 });
    expect(answer).toContain("6 TypeScript files under src/");
    expect(answer).toContain("- src/tax.ts (4 lines): exports tax");
    expect(answer).toContain("- src/tax.ts:1 TODO: VAT for Europe");
    expect(answer).toContain("6 markers: 5 TODO, 1 FIXME.");
  });
});

describe("agentry demo as a process", () => {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1" };

  it("prints the numbers as JSON, offline and without a key", async () => {
    const home = await tempDir();
    const result = await runCli(["demo", "--output-format", "json"], {
      cwd: home,
      env: { ...env, HOME: home },
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as DemoResult & { status: string; workspace?: string };
    expect(parsed.status).toBe("completed");
    expect(parsed.workspace).toBeUndefined();
    expectDelegationWorked(parsed);
  });

  it("prints the progress lines, the answer and the context numbers; --keep keeps the repository", async () => {
    const home = await tempDir();
    const result = await runCli(["demo", "--keep", "--pace-ms", "20"], {
      cwd: home,
      env: { ...env, HOME: home },
    });
    const kept = /Kept the sample repository: (\S+)/.exec(result.stdout)?.[1];
    if (kept !== undefined) removeLater(kept);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("[main/explore-1] started explore (demo): map the source layout");
    expect(result.stderr).toMatch(/\[main\/explore-3\] completed in \S+, 4 turns/);
    expect(result.stdout).toContain("## TODOs and the bug");
    expect(result.stdout).toMatch(/the parent's context kept +[\d,]+ characters/);
    expect(result.stdout).toContain("Tokens are estimated as characters / 4");
    expect(kept).toBeDefined();
    expect((await stat(join(kept as string, "src", "cart.ts"))).isFile()).toBe(true);
  });

  it("documents itself in --help and rejects a bad option with a usage error", async () => {
    const home = await tempDir();
    const help = await runCli(["demo", "--help"], { cwd: home, env: { ...env, HOME: home } });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--keep");
    expect(help.stdout).toContain("no API key");
    const bad = await runCli(["demo", "--output-format", "xml"], { cwd: home, env: { ...env, HOME: home } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("xml");
  });
});
