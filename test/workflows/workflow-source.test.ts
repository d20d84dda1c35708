import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { ensureStateDir, stateDir } from "../../src/state/state-dir.ts";
import { workflowRunsDir } from "../../src/workflows/replay-journal.ts";
import { loadWorkflow } from "../../src/workflows/saved-workflows.ts";
import { runScript } from "../../src/workflows/script-sandbox.ts";
import { parseWorkflowSource } from "../../src/workflows/workflow-source.ts";
import { tempDir } from "../support/temp-dir.ts";
import { scaled } from "../support/time-scale.ts";

const noHost = {
  args: { n: 2 },
  agent: async () => JSON.stringify({ ok: true, value: "x" }),
  phase: () => {},
  log: () => {},
  failure: () => {},
};

test("a TypeScript script runs with its types stripped, and meta may hold braces in strings and comments", async () => {
  const source = await parseWorkflowSource(
    `interface Args { n: number }
export const meta = {
  name: "typed", // a { comment
  description: "braces } in a string",
  phases: ["One", { title: "Two", detail: "{x}" }],
};
const input = args as Args;
const double = (value: number): number => value * 2;
return { doubled: double(input.n), name: meta.name };
`,
    "typed.ts",
    { typescript: true },
  );
  expect(source.meta).toMatchObject({
    name: "typed",
    description: "braces } in a string",
    phases: [{ title: "One" }, { title: "Two", detail: "{x}" }],
  });
  expect(
    await runScript(source.body, noHost, {
      signal: AbortSignal.timeout(scaled(10_000)),
      filename: "typed.ts",
    }),
  ).toEqual({
    doubled: 4,
    name: "typed",
  });
});

test("a script without meta, or with a meta that is not a literal object, is refused with what to write", async () => {
  await expect(parseWorkflowSource("return 1;", "a.js")).rejects.toThrow(
    /must begin with `export const meta = /,
  );
  await expect(parseWorkflowSource("export const meta = makeMeta();\nreturn 1;", "b.js")).rejects.toThrow(
    /meta must be an object literal/,
  );
  await expect(
    parseWorkflowSource('export const meta = { description: "no name" };', "c.js"),
  ).rejects.toThrow(/meta is not valid: name/);
});

test("a saved workflow is found by file name or meta.name; an unknown name lists the saved ones", async () => {
  const project = await tempDir("agentry-wf-");
  const home = await tempDir("agentry-wf-home-");
  await mkdir(join(project, ".claude/workflows"), { recursive: true });
  await mkdir(join(home, ".agentry/workflows"), { recursive: true });
  await writeFile(
    join(project, ".claude/workflows/audit.js"),
    'export const meta = { name: "security-audit" };\nreturn 1;',
  );
  await writeFile(
    join(home, ".agentry/workflows/mine.ts"),
    'export const meta = { name: "mine" };\nreturn 2 as number;',
  );
  const places = { cwd: project, projectDir: project, homeDir: home };
  expect((await loadWorkflow("audit", places)).source.meta.name).toBe("security-audit");
  expect((await loadWorkflow("security-audit", places)).source.origin).toBe(
    join(project, ".claude/workflows/audit.js"),
  );
  expect((await loadWorkflow("mine", places)).typescript).toBe(true);
  await expect(loadWorkflow("nope", places)).rejects.toThrow(
    /No workflow file or saved workflow named "nope". Saved workflows: audit, mine/,
  );
});

test("saved workflows under .agentry/workflows/ can be committed; run journals stay ignored", async () => {
  const repo = await tempDir("agentry-wf-git-");
  execFileSync("git", ["init", "-q"], { cwd: repo });
  ensureStateDir(repo, workflowRunsDir(repo));
  await mkdir(join(stateDir(repo), "workflows"), { recursive: true });
  await writeFile(join(stateDir(repo), "workflows/review.js"), "export const meta = { name: 'review' };\n");
  await writeFile(join(workflowRunsDir(repo), "wf-1.jsonl"), "{}\n");
  const untracked = execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], {
    cwd: repo,
    encoding: "utf8",
  });
  expect(untracked).toContain(".agentry/workflows/review.js");
  expect(untracked).not.toContain("workflow-runs");
});
