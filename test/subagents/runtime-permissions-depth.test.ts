import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import type { ModelRequest } from "../../src/model/model.ts";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import {
  firstUserText,
  rootTree,
  runTree,
  tempWorkspace,
  toolResultsIn,
} from "./support/subagent-harness.ts";

type Step = { spawn: { prompt: string; type?: string } } | { calls: NonNullable<ScriptedReply["toolCalls"]> };

/** Each prompt's first turn does its step; once it has results it reports them verbatim. */
function tree(steps: Record<string, Step>) {
  return (request: ModelRequest): ScriptedReply => {
    const prompt = firstUserText(request.messages);
    const results = toolResultsIn(request.messages);
    if (results.length > 0)
      return { text: results.map((r) => `${r.isError ? "ERR" : "OK"} ${r.content}`).join("\n") };
    const step = steps[prompt];
    if (step === undefined) return { text: `${prompt}: nothing to do` };
    if ("calls" in step) return { toolCalls: step.calls };
    return {
      toolCalls: [
        {
          name: "task",
          args: {
            description: "Next level",
            prompt: step.spawn.prompt,
            ...(step.spawn.type ? { subagent_type: step.spawn.type } : {}),
          },
        },
      ],
    };
  };
}

const resultsOf = (requests: ModelRequest[], prompt: string) =>
  toolResultsIn(requests.filter((r) => firstUserText(r.messages) === prompt).at(-1)!.messages);

test("an explore grandchild cannot write by write, edit or a writing bash command", async () => {
  const ws = await tempWorkspace();
  await writeFile(join(ws, "existing.txt"), "original\n");
  const model = scriptedModel(
    tree({
      ROOT: { spawn: { prompt: "CHILD" } },
      CHILD: { spawn: { prompt: "GRANDCHILD", type: "explore" } },
      GRANDCHILD: {
        calls: [
          { name: "write", args: { path: "new.txt", content: "x" } },
          { name: "edit", args: { path: "existing.txt", old_string: "original", new_string: "changed" } },
          { name: "bash", args: { command: "echo pwned > bash.txt" } },
          { name: "bash", args: { command: "cat existing.txt" } },
        ],
      },
    }),
  );
  // Even bypass mode cannot lift the explore agent's deny rules.
  const { config } = rootTree({ workspace: ws, model, limits: { maxDepth: 2 }, mode: "bypass" });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  const grandchild = model.requests.filter((r) => firstUserText(r.messages) === "GRANDCHILD");
  expect(grandchild[0]!.tools.map((t) => t.name)).toEqual(["bash", "read", "grep", "glob", "list"]);
  const [write, edit, writingBash, readingBash] = resultsOf(model.requests, "GRANDCHILD");
  expect(write).toMatchObject({ isError: true });
  expect(write?.content).toContain('Unknown tool "write"');
  expect(edit).toMatchObject({ isError: true });
  expect(edit?.content).toContain('Unknown tool "edit"');
  expect(writingBash).toMatchObject({ isError: true });
  expect(writingBash?.content).toContain("denied");
  expect(readingBash).toMatchObject({ isError: false, content: "original" });
  expect(existsSync(join(ws, "new.txt"))).toBe(false);
  expect(existsSync(join(ws, "bash.txt"))).toBe(false);
  expect(readFileSync(join(ws, "existing.txt"), "utf8")).toBe("original\n");
});

test("a parent-level deny on `bash rm *` holds in every child", async () => {
  const ws = await tempWorkspace();
  await writeFile(join(ws, "victim.txt"), "keep me\n");
  const attempts = [
    { name: "bash", args: { command: "rm victim.txt" } },
    { name: "bash", args: { command: "ls && rm -f victim.txt" } },
  ];
  const model = scriptedModel(
    tree({
      ROOT: { spawn: { prompt: "CHILD" } },
      CHILD: {
        calls: [...attempts, { name: "task", args: { description: "Next level", prompt: "GRANDCHILD" } }],
      },
      GRANDCHILD: { calls: attempts },
    }),
  );
  const rules = [...DEFAULT_RULES, { permission: "bash", pattern: "rm *", action: "deny" as const }];
  const { config } = rootTree({ workspace: ws, model, rules, mode: "bypass", limits: { maxDepth: 2 } });

  const run = await runTree(config, "ROOT");
  expect(run.outcome.status).toBe("completed");
  for (const prompt of ["CHILD", "GRANDCHILD"]) {
    const [plain, compound] = resultsOf(model.requests, prompt);
    for (const result of [plain, compound]) {
      expect(result?.isError).toBe(true);
      expect(result?.content).toContain("bash:'rm *':deny");
    }
  }
  expect(readFileSync(join(ws, "victim.txt"), "utf8")).toBe("keep me\n");
});
