import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import type { AskHandler } from "../../src/permissions/gate.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { notificationsIn } from "./support/notifications.ts";
import {
  firstUserText,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

test("a background child's ask reaches the root's handler with its path while the parent goes on, and its answer holds", async () => {
  const ws = await tempWorkspace();
  await writeFile(join(ws, "notes.txt"), "the parent's own reading\n");
  const order: string[] = [];
  let parentWorked: () => void = () => {};
  const parentHasWorked = new Promise<void>((resolve) => {
    parentWorked = resolve;
  });

  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    const results = toolResultsIn(request.messages);
    if (firstUserText(request.messages) === "CHILD")
      return results.length === 0
        ? { toolCalls: [{ name: "write", args: { path: "from-child.txt", content: "approved\n" } }] }
        : { text: `child: ${results[0]?.content}` };
    if (results.length === 0)
      return {
        toolCalls: [
          { name: "task", args: { description: "Write a file", prompt: "CHILD", run_in_background: true } },
        ],
      };
    if (results.length === 1) return { toolCalls: [{ name: "read", args: { path: "notes.txt" } }] };
    if (notificationsIn(request.messages).length === 0) {
      // The parent read its file while the child's question was still open.
      order.push("parent read notes.txt");
      parentWorked();
      return { text: "waiting for the child" };
    }
    return { text: "heard back" };
  });
  const asked: Array<{ path: string; permission: string; patterns: string[] }> = [];
  const onAsk: AskHandler = async (request) => {
    asked.push({
      path: request.agentPath.join("/"),
      permission: request.permission,
      patterns: request.patterns,
    });
    order.push("child asked");
    await parentHasWorked;
    order.push("user answered once");
    return "once";
  };
  const { config } = rootTree({ workspace: ws, model, mode: "default", onAsk });

  const run = await runTree(config, "ROOT");
  expect(run.outcome).toMatchObject({ status: "completed", text: "heard back" });
  expect(asked).toEqual([
    { path: "main/general-purpose-1", permission: "edit", patterns: ["from-child.txt"] },
  ]);
  expect(order).toEqual(["child asked", "parent read notes.txt", "user answered once"]);
  expect(readFileSync(join(ws, "from-child.txt"), "utf8")).toBe("approved\n");
  const [note] = notificationsIn(run.session.messages);
  expect(note).toContain("<status>completed</status>");
  expect(note).toContain("child: Created from-child.txt");
});
