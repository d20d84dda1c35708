import { expect, it } from "vitest";
import { isCompactionRequest } from "../../src/agent/compaction/compact-history.ts";
import { readTranscript } from "../../src/agent/session/transcript.ts";
import type { ModelRequest } from "../../src/model/model.ts";
import { type ScriptedReply, scriptedModel } from "../../src/testing/index.ts";
import { expectedSum, factAgent, factTool } from "../agent/compaction/support.ts";
import { isChildRequest, rootTree, runTree, tempWorkspace } from "./support/subagent-harness.ts";

it("a child compacts its own conversation under the tree's policy and still reports the right answer", async () => {
  const workspace = await tempWorkspace();
  const child = factAgent(12);
  let parentCalls = 0;
  const model = scriptedModel((request: ModelRequest): ScriptedReply => {
    if (isChildRequest(request) || isCompactionRequest(request)) return child(request);
    parentCalls++;
    if (parentCalls === 1) {
      return {
        toolCalls: [{ name: "task", args: { description: "add up facts", prompt: "Add up facts 1 to 12." } }],
      };
    }
    const last = request.messages.at(-1);
    const result = last?.role === "tool_result" ? (last.content[0]?.content ?? "") : "";
    return { text: /The sum is \d+\./.exec(result)?.[0] ?? "no result" };
  });
  const { config, runtime } = rootTree({
    workspace,
    model,
    tools: [factTool(4_000)],
    compaction: { contextWindow: () => 8_000 },
  });
  const run = await runTree(config, "What do facts 1 to 12 add up to?");
  await runtime.shutdown();

  expect(run.outcome).toMatchObject({ status: "completed", text: `The sum is ${expectedSum(12)}.` });
  const compacted = run.of("compacted");
  expect(compacted.length).toBeGreaterThanOrEqual(2);
  for (const event of compacted) expect(event.agentPath).toEqual(["main", "general-purpose-1"]);
  // The summary call spoke for the child: its system prompt and tools, not the parent's.
  const summaries = model.requests.filter(isCompactionRequest);
  expect(summaries.length).toBe(compacted.length);
  for (const request of summaries) expect(isChildRequest(request)).toBe(true);
  // The child's transcript records its compactions.
  const start = run.of("agent_start").find((e) => e.agentPath.length === 2);
  const transcript = await readTranscript(`${workspace}/.agentry/sessions/${start?.sessionId}.jsonl`);
  expect(transcript.entries.filter((e) => e.type === "compaction")).toHaveLength(compacted.length);
});
