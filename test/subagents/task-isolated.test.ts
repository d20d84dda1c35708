import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { registryWith, rootTree, runTree, tempWorkspace, toolResultsIn } from "./support/subagent-harness.ts";

test("an isolated child works in .agentry/agents/<name>/workspace/, created for it", async () => {
  const ws = await tempWorkspace();
  const sandboxed = {
    name: "sandboxed",
    description: "Works in its own folder.",
    prompt: "You work alone.",
    workspace: { mode: "isolated" as const },
  };
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    const results = toolResultsIn(request.messages);
    if (request.system.includes("You work alone."))
      return results.length === 0
        ? { toolCalls: [{ name: "write", args: { path: "out.txt", content: "isolated\n" } }] }
        : { text: "wrote out.txt" };
    return results.length === 0
      ? {
          toolCalls: [
            { name: "task", args: { description: "Write alone", prompt: "go", subagent_type: "sandboxed" } },
          ],
        }
      : { text: "done" };
  });
  const { config } = rootTree({ workspace: ws, model, registry: registryWith(sandboxed) });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  const dir = join(ws, ".agentry", "agents", "sandboxed", "workspace");
  expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("isolated\n");
  expect(existsSync(join(ws, "out.txt"))).toBe(false);
  const child = model.requests.find((r) => r.system.includes("You work alone."))!;
  expect(child.system).toContain(`Your working directory is \`${dir}\``);
});
