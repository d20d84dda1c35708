import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { type Message, userText } from "../../src/model/messages.ts";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { git, gitRepo } from "./support/git-repo.ts";
import { registryWith, rootTree, toolResultsIn } from "./support/subagent-harness.ts";

const builder = {
  name: "builder",
  description: "Builds in its own worktree.",
  prompt: "You build things.",
  workspace: { mode: "worktree" as const },
};

const lastUserText = (messages: readonly Message[]) => {
  const last = messages.findLast((message) => message.role === "user");
  return last?.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("") ?? "";
};

/**
 * The child writes `<step>.txt` (listing what it finds first, so its second run proves it sees its
 * earlier work); the root starts it, or continues `taskId` when given.
 */
function script(taskId?: string) {
  return (request: ModelRequest): ScriptedReply => {
    const results = toolResultsIn(request.messages);
    if (request.system.includes("You build things.")) {
      const step = lastUserText(request.messages);
      if (results.length === 0 || request.messages.at(-1)?.role === "user")
        return { toolCalls: [{ name: "write", args: { path: `${step}.txt`, content: `${step}\n` } }] };
      return { text: `wrote ${step}.txt` };
    }
    if (results.length > 0 && request.messages.at(-1)?.role !== "user") return { text: "done" };
    const args = taskId
      ? { description: "More", prompt: "second", task_id: taskId }
      : { description: "Build", prompt: "first", subagent_type: "builder" };
    return { toolCalls: [{ name: "task", args }] };
  };
}

test.each([
  ["its branch is re-attached", false],
  ["a stale registration of its deleted worktree is pruned first", true],
])("a worktree child is continued after a restart: %s, and it gains a second commit", async (_, stale) => {
  const ws = await gitRepo();

  // First process: the child commits first.txt on its branch; its worktree is removed.
  const first = rootTree({ workspace: ws, model: scriptedModel(script()), registry: registryWith(builder) });
  const session = await Session.create({ workspace: ws, agentName: "main", model: "scripted:model" });
  await session.append(userText("ROOT"));
  expect((await runAgentLoop(first.config, session, () => {})).status).toBe("completed");
  const [record] = await first.runtime.store.list({});
  const branch = `agentry/builder-${record?.taskId}`;
  expect(git(ws, "show", `${branch}:first.txt`)).toBe("first");
  if (stale) {
    // A run killed mid-task left its worktree registered; then someone deleted the folder.
    const dir = join(ws, ".agentry", "worktrees", record?.taskId ?? "");
    git(ws, "worktree", "add", "-q", dir, branch);
    await rm(dir, { recursive: true, force: true });
  }

  // The restart: a new runtime, the root's session resumed, the same child continued by task_id.
  const second = rootTree({
    workspace: ws,
    model: scriptedModel(script(record?.taskId)),
    registry: registryWith(builder),
  });
  const resumed = await Session.resume(ws, session.id);
  await resumed.append(userText("AGAIN"));
  expect((await runAgentLoop(second.config, resumed, () => {})).status).toBe("completed");

  const answer = toolResultsIn(resumed.messages).at(-1);
  expect(answer?.isError).toBe(false);
  expect(answer?.content).toContain("wrote second.txt");
  expect(answer?.content).toContain(`committed on branch ${branch}`);
  expect(git(ws, "show", `${branch}:first.txt`)).toBe("first");
  expect(git(ws, "show", `${branch}:second.txt`)).toBe("second");
  expect(git(ws, "rev-list", "--count", `main..${branch}`)).toBe("2");
  expect(existsSync(join(ws, "second.txt"))).toBe(false);
  expect(git(ws, "worktree", "list").split("\n")).toHaveLength(1);
});

test("continuing a worktree child that changes nothing keeps the branch with its earlier work", async () => {
  const ws = await gitRepo();
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    const step = lastUserText(request.messages);
    if (request.system.includes("You build things.")) {
      if (step === "first" && request.messages.at(-1)?.role === "user")
        return { toolCalls: [{ name: "write", args: { path: "first.txt", content: "first\n" } }] };
      return { text: step === "first" ? "wrote first.txt" : "nothing to do" };
    }
    const results = toolResultsIn(request.messages);
    if (results.length === 0)
      return {
        toolCalls: [
          { name: "task", args: { description: "Build", prompt: "first", subagent_type: "builder" } },
        ],
      };
    if (results.length === 1) {
      const taskId = /task_id="([^"]+)"/.exec(results[0]?.content ?? "")?.[1] ?? "";
      return {
        toolCalls: [{ name: "task", args: { description: "Check", prompt: "check", task_id: taskId } }],
      };
    }
    return { text: "done" };
  });
  const { config, runtime } = rootTree({ workspace: ws, model, registry: registryWith(builder) });
  const session = await Session.create({ workspace: ws, agentName: "main", model: "scripted:model" });
  await session.append(userText("ROOT"));
  expect((await runAgentLoop(config, session, () => {})).status).toBe("completed");

  const [record] = await runtime.store.list({});
  const branch = `agentry/builder-${record?.taskId}`;
  const answer = toolResultsIn(session.messages).at(-1);
  expect(answer?.content).toContain("nothing to do");
  expect(answer?.content).toContain(`committed on branch ${branch}`);
  expect(git(ws, "show", `${branch}:first.txt`)).toBe("first");
  expect(git(ws, "worktree", "list").split("\n")).toHaveLength(1);
});
