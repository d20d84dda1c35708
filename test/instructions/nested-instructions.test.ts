import { describe, expect, it } from "vitest";
import type { BeforeModelCallContext } from "../../src/agent/hooks.ts";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { nestedInstructionsHooks } from "../../src/instructions/nested-instructions.ts";
import { type Message, userText } from "../../src/model/messages.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { builtinTools } from "../../src/tools/builtin.ts";
import { sessionWithPrompt, testConfig, toolResultsIn } from "../agent/support/harness.ts";
import { fixture } from "./support.ts";

type Call = { name: string; args: Record<string, unknown> };

/** Runs the agent in the fixture's workspace, one message per list of calls; returns the results' text. */
async function run(f: Awaited<ReturnType<typeof fixture>>, messages: Call[][]) {
  const loaded = await f.load();
  const warnings: string[] = [];
  const hooks = nestedInstructionsHooks({
    context: loaded.context,
    workspace: f.workspace,
    warn: (message) => warnings.push(message),
  });
  let id = 0;
  const model = scriptedModel([
    ...messages.map((calls) => ({ toolCalls: calls.map((call) => ({ id: `c${id++}`, ...call })) })),
    { text: "done" },
  ]);
  const config = testConfig(f.workspace, model, { tools: builtinTools(), hooks: [hooks] });
  const outcome = await runAgentLoop(config, await sessionWithPrompt(f.workspace), () => {});
  expect(outcome.status).toBe("completed");
  const last = model.requests.at(-1)?.messages ?? [];
  return { results: toolResultsIn(last).map((result) => result.content), warnings, requests: model.requests };
}

describe("nested instruction files", () => {
  it("adds a folder's own files to the result of the first read under it, once, and not before", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/top.txt", "top file");
    await f.write("home/repo/pkg/sub/a.txt", "file a");
    await f.write("home/repo/pkg/sub/b.txt", "file b");
    await f.write("home/repo/pkg/sub/AGENTS.md", "SUB-AGENTS");
    await f.write("home/repo/pkg/sub/CLAUDE.md", "SUB-CLAUDE @notes.md");
    await f.write("home/repo/pkg/sub/notes.md", "SUB-IMPORT");
    const { results, requests } = await run(f, [
      [{ name: "read", args: { path: "top.txt" } }],
      [{ name: "read", args: { path: "sub/a.txt" } }],
      [{ name: "read", args: { path: "sub/b.txt" } }],
    ]);
    expect(results[0]).not.toContain("SUB-AGENTS");
    expect(results[1]).toContain("file a");
    expect(results[1]).toContain("The folders of sub/a.txt have instruction files of their own.");
    expect(results[1]).toContain('<instructions file="sub/AGENTS.md">\nSUB-AGENTS\n</instructions>');
    expect(results[1]).toContain('<instructions file="sub/notes.md">\nSUB-IMPORT\n</instructions>');
    expect(results[2]).not.toContain("SUB-AGENTS");
    // Not in any request before the read, nor in the system prompt.
    expect(JSON.stringify(requests.slice(0, 2))).not.toContain("SUB-AGENTS");
    expect(requests.every((request) => !request.system.includes("SUB-AGENTS"))).toBe(true);
  });

  it("adds them once when two reads under the folder run in the same message", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/sub/a.txt", "a");
    await f.write("home/repo/pkg/sub/b.txt", "b");
    await f.write("home/repo/pkg/sub/AGENTS.md", "SUB-AGENTS");
    const { results } = await run(f, [
      [
        { name: "read", args: { path: "sub/a.txt" } },
        { name: "read", args: { path: "sub/b.txt" } },
      ],
    ]);
    expect(results.join("\n").match(/SUB-AGENTS/g)).toHaveLength(1);
  });

  it("adds each folder's files down to the one worked in, when a file is written there", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/sub/AGENTS.md", "SUB");
    await f.write("home/repo/pkg/sub/deep/AGENTS.md", "DEEP");
    const { results } = await run(f, [[{ name: "write", args: { path: "sub/deep/new.txt", content: "x" } }]]);
    expect(results[0]?.indexOf("SUB")).toBeGreaterThan(-1);
    expect(results[0]?.indexOf("DEEP")).toBeGreaterThan(results[0]?.indexOf("SUB") ?? 0);
  });

  it("adds nothing for a failed call, a tool without a path, or a file in the workspace itself", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/sub/AGENTS.md", "SUB-AGENTS");
    await f.write("home/repo/pkg/x.txt", "x");
    const { results } = await run(f, [
      [
        { name: "read", args: { path: "sub/missing.txt" } },
        { name: "list", args: { path: "sub" } },
        { name: "read", args: { path: "x.txt" } },
      ],
    ]);
    expect(results.join("\n")).not.toContain("SUB-AGENTS");
  });

  it("warns about a nested file that leads outside the workspace instead of reading it", async () => {
    const f = await fixture();
    const secret = await f.write("outside/secret.md", "SECRET");
    await f.write("home/repo/pkg/sub/a.txt", "a");
    await f.link("home/repo/pkg/sub/CLAUDE.md", secret);
    const { results, warnings } = await run(f, [[{ name: "read", args: { path: "sub/a.txt" } }]]);
    expect(results[0]).not.toContain("SECRET");
    expect(warnings).toEqual([`sub/CLAUDE.md was not read: it leads to ${secret}, outside the workspace`]);
  });
});

describe("nested instruction files after a compaction", () => {
  it("adds a folder's files again once a compaction replaced the history that held them", async () => {
    const f = await fixture();
    await f.write("home/repo/pkg/sub/a.txt", "a");
    await f.write("home/repo/pkg/sub/AGENTS.md", "SUB-AGENTS");
    const hooks = nestedInstructionsHooks({ context: (await f.load()).context, workspace: f.workspace });
    const agent = { path: ["main"], name: "main", sessionId: "s1", depth: 0 };
    const signal = new AbortController().signal;
    const callModel = (first: Message) =>
      hooks.beforeModelCall?.({
        agent,
        turn: 1,
        signal,
        messages: [first],
      } as unknown as BeforeModelCallContext);
    const read = async () => {
      const result = {
        type: "tool_result" as const,
        toolCallId: "r",
        toolName: "read",
        content: "a",
        isError: false,
      };
      const call = {
        type: "tool_call" as const,
        id: "r",
        name: "read",
        args: { path: "sub/a.txt" },
        rawArgs: "",
      };
      const after = await hooks.afterToolCall?.({ agent, turn: 1, signal, call, result });
      return (after ?? result).content;
    };
    await callModel(userText("the prompt"));
    expect(await read()).toContain("SUB-AGENTS");
    expect(await read()).not.toContain("SUB-AGENTS");
    await callModel(userText("the summary of a compaction"));
    expect(await read()).toContain("SUB-AGENTS");
  });
});
