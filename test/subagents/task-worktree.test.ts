import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { git, gitRepo } from "./support/git-repo.ts";
import { registryWith, rootTree, runTree, tempWorkspace, toolResultsIn } from "./support/subagent-harness.ts";

const builder = {
  name: "builder",
  description: "Builds in its own worktree.",
  prompt: "You build things.",
  workspace: { mode: "worktree" as const },
};

/** The root delegates to `builder`; the child runs `calls` once, then reports. */
function script(calls: NonNullable<ScriptedReply["toolCalls"]>) {
  return (request: ModelRequest): ScriptedReply => {
    const results = toolResultsIn(request.messages);
    if (request.system.includes("You build things."))
      return results.length === 0 && calls.length > 0 ? { toolCalls: calls } : { text: "built" };
    return results.length === 0
      ? {
          toolCalls: [
            {
              name: "task",
              args: { description: "Build feature", prompt: "build", subagent_type: "builder" },
            },
          ],
        }
      : { text: "done" };
  };
}

test("a worktree child's edits land on its branch, not in the main checkout", async () => {
  const ws = await gitRepo();
  const model = scriptedModel(
    script([
      { name: "write", args: { path: "feature.txt", content: "new feature\n" } },
      { name: "edit", args: { path: "README.md", old_string: "# project", new_string: "# project (built)" } },
    ]),
  );
  const { config } = rootTree({ workspace: ws, model, registry: registryWith(builder) });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  const [result] = toolResultsIn(run.session.messages);
  const branch = /branch="(agentry\/builder-sub-[^"]+)"/.exec(result!.content)?.[1];
  expect(branch).toBeDefined();
  expect(result?.content).toContain(`committed on branch ${branch}, not in your checkout`);

  // The main checkout is untouched and clean.
  expect(existsSync(join(ws, "feature.txt"))).toBe(false);
  expect(readFileSync(join(ws, "README.md"), "utf8")).toBe("# project\n");
  // (agentry's own state folder aside, which the harness creates in every workspace)
  expect(git(ws, "status", "--porcelain", "--", ".", ":(exclude).agentry")).toBe("");
  expect(git(ws, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");

  // The branch holds the child's work in one commit on top of main.
  expect(git(ws, "show", `${branch}:feature.txt`)).toBe("new feature");
  expect(git(ws, "show", `${branch}:README.md`)).toBe("# project (built)");
  expect(git(ws, "rev-list", "--count", `main..${branch}`)).toBe("1");

  // The child worked inside the worktree; the worktree itself is gone once its work is committed.
  const childRequest = model.requests.find((r) => r.system.includes("You build things."))!;
  expect(childRequest.system).toContain(join(ws, ".agentry", "worktrees"));
  expect(git(ws, "worktree", "list").split("\n")).toHaveLength(1);
});

test("a worktree child that changed nothing (agentry's state aside) leaves no worktree and no branch", async () => {
  const ws = await gitRepo();
  const model = scriptedModel(
    script([
      { name: "read", args: { path: "README.md" } },
      // What the harness itself writes in a workspace (spilled tool output) is not the child's work.
      { name: "write", args: { path: ".agentry/tool-output/spill.txt", content: "long output" } },
    ]),
  );
  const { config } = rootTree({ workspace: ws, model, registry: registryWith(builder) });

  await runTree(config, "ROOT");
  const [result] = toolResultsIn(model.requests.at(-1)!.messages);
  expect(result?.isError).toBe(false);
  expect(result?.content).not.toContain("branch=");
  expect(result?.content).toContain("changed no files, so its worktree and branch were removed");
  expect(git(ws, "branch", "--list", "agentry/*")).toBe("");
  expect(git(ws, "worktree", "list").split("\n")).toHaveLength(1);
});

test("a worktree child in a workspace that is not a git repository is a clear error", async () => {
  const ws = await tempWorkspace();
  const model = scriptedModel(script([]));
  const { config, runtime } = rootTree({ workspace: ws, model, registry: registryWith(builder) });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  const [result] = toolResultsIn(run.session.messages);
  expect(result?.isError).toBe(true);
  expect(result?.content).toBe(
    `Agent "builder" needs a git worktree, but ${ws} is not inside a git repository. Run it in a git checkout, or give the agent \`workspace: { mode: shared }\` or \`isolated\`.`,
  );
  expect(runtime.started).toBe(0);
});

test("agentry's own git commands for a worktree child run no hook and no fsmonitor of the repository", async () => {
  const ws = await gitRepo();
  const marker = join(ws, "..", `ran-${Date.now()}`);
  git(ws, "config", "core.fsmonitor", `touch ${marker}-fsmonitor; false`);
  writeFileSync(join(ws, ".git", "hooks", "post-checkout"), `#!/bin/sh\ntouch ${marker}-hook\n`);
  chmodSync(join(ws, ".git", "hooks", "post-checkout"), 0o755);
  const model = scriptedModel(script([{ name: "write", args: { path: "feature.txt", content: "x\n" } }]));
  const { config } = rootTree({ workspace: ws, model, registry: registryWith(builder) });
  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  expect(existsSync(`${marker}-fsmonitor`)).toBe(false);
  expect(existsSync(`${marker}-hook`)).toBe(false);
});
