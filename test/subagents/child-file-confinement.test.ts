import { existsSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { git, gitRepo } from "./support/git-repo.ts";
import { registryWith, rootTree, runTree, tempWorkspace, toolResultsIn } from "./support/subagent-harness.ts";

const PROMPT = "You work in your own folder.";

/**
 * A child with its own workspace (isolated folder or git worktree) lives inside the parent's
 * workspace, so the parent's files are one `..` away: its file tools must treat them as outside.
 */
async function parentWith(mode: "isolated" | "worktree"): Promise<string> {
  if (mode === "isolated") {
    const ws = await tempWorkspace();
    // The isolated folder exists before the child starts, with a symlink back up to the parent's files.
    const own = join(ws, ".agentry", "agents", "loner", "workspace");
    await mkdir(own, { recursive: true });
    await symlink(ws, join(own, "up"));
    return ws;
  }
  const ws = await gitRepo();
  // Committed, so the worktree gets it: from <ws>/.agentry/worktrees/<id>/ it points at <ws>.
  await symlink("../../..", join(ws, "up"));
  git(ws, "add", "up");
  git(ws, "commit", "-q", "-m", "a link up");
  return ws;
}

describe.each(["isolated", "worktree"] as const)("a child with an %s workspace", (mode) => {
  it("has file tools that refuse every path into the parent's workspace, and change nothing there", async () => {
    const ws = await parentWith(mode);
    await writeFile(join(ws, "secret.txt"), "PARENT SECRET\n");
    const secret = join(ws, "secret.txt");
    const viaDots = `${"../".repeat(40)}${secret.slice(1)}`;
    const attempts: NonNullable<ScriptedReply["toolCalls"]> = [
      { name: "read", args: { path: secret } },
      { name: "read", args: { path: viaDots } },
      { name: "read", args: { path: "up/secret.txt" } },
      { name: "write", args: { path: join(ws, "pwned.txt"), content: "pwned" } },
      { name: "write", args: { path: "up/pwned.txt", content: "pwned" } },
      { name: "edit", args: { path: secret, old_string: "PARENT", new_string: "pwned" } },
      { name: "edit", args: { path: "up/secret.txt", old_string: "PARENT", new_string: "pwned" } },
      { name: "grep", args: { pattern: "SECRET", path: ws } },
      { name: "grep", args: { pattern: "SECRET", path: "up" } },
      { name: "glob", args: { pattern: "*.txt", path: ws } },
      { name: "list", args: { path: "up" } },
      // The control: its own folder is writable.
      { name: "write", args: { path: "inside.txt", content: "mine\n" } },
    ];
    const model = scriptedModel((request: ModelRequest): ScriptedReply => {
      const results = toolResultsIn(request.messages);
      if (request.system.includes(PROMPT))
        return results.length === 0 ? { toolCalls: attempts } : { text: "tried" };
      return results.length === 0
        ? {
            toolCalls: [
              { name: "task", args: { description: "Try to escape", prompt: "go", subagent_type: "loner" } },
            ],
          }
        : { text: "done" };
    });
    const loner = { name: "loner", description: "Works alone.", prompt: PROMPT, workspace: { mode } };
    const { config } = rootTree({ workspace: ws, model, registry: registryWith(loner) });

    const run = await runTree(config, "ROOT");
    expect(run.outcome.status).toBe("completed");
    const childResults = toolResultsIn(
      model.requests.filter((request) => request.system.includes(PROMPT)).at(-1)!.messages,
    );
    expect(childResults).toHaveLength(attempts.length);
    const refused = childResults.slice(0, -1);
    for (const [index, result] of refused.entries()) {
      expect(result.isError, JSON.stringify(attempts[index])).toBe(true);
      expect(result.content, JSON.stringify(attempts[index])).toMatch(/outside/);
    }
    expect(childResults.at(-1)?.isError, childResults.at(-1)?.content).toBe(false);

    expect(await readFile(secret, "utf8")).toBe("PARENT SECRET\n");
    expect(existsSync(join(ws, "pwned.txt"))).toBe(false);
  });
});
