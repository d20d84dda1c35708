import { afterEach, expect, test } from "vitest";
import { ModelLimiters } from "../../src/model/model-limiters.ts";
import { createModel } from "../../src/model/registry.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import {
  CHILD_MARK,
  rootTree,
  runTree,
  tempWorkspace,
  wireMessages,
  wireSystem,
  wireTexts,
} from "./support/subagent-harness.ts";

// End to end at the wire: the real Anthropic adapter and the limiter against a test server that, like
// a provider at its limits, refuses requests beyond 3 in flight with 429 and `retry-after: 1`.

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const isChild = (request: RecordedRequest) => wireSystem(request.body).includes(CHILD_MARK);

/** Root: one message with `count` task calls, then a final answer; each child answers after `delayMs`. */
function fanOut(count: number, delayMs: number) {
  return (request: RecordedRequest) => {
    if (isChild(request)) {
      const prompt = wireTexts(wireMessages(request.body)[0]!)[0] ?? "";
      return { text: `report for ${prompt}`, delayMs };
    }
    if (wireMessages(request.body).length > 1) return { text: "all done" };
    return {
      toolCalls: Array.from({ length: count }, (_, i) => ({
        id: `toolu_${i}`,
        name: "task",
        args: { description: `Part ${i}`, prompt: `part ${i}`, subagent_type: "explore" },
      })),
    };
  };
}

test("16 children against a provider that takes 3 at once: all complete, the refusals stop once the limit is learned", async () => {
  const workspace = await tempWorkspace();
  server = await startModelServer(fanOut(16, 100), { capacity: { maxInFlight: 3, retryAfterSeconds: 1 } });
  // No probe above the learnt limit during the test: it comes after 5 s of full use, which a loaded
  // machine's run lasts, and would then draw a refusal of its own (probing has its own tests).
  const limiters = new ModelLimiters({ probeMs: 3_600_000 });
  const model = () =>
    createModel(
      "anthropic:claude-sonnet-4-5",
      { anthropic: { apiKey: "test-key", baseUrl: server!.anthropicBaseUrl } },
      {},
      { limiters },
    );
  const { config, runtime } = rootTree({ workspace, model: model(), createModel: model });

  const run = await runTree(config, "Explore sixteen parts.");
  await runtime.shutdown();
  expect(run.outcome).toMatchObject({ status: "completed", text: "all done" });
  const children = run.of("agent_end").filter((event) => event.agentPath.length === 2);
  expect(children.map((event) => event.outcome.status)).toEqual(Array(16).fill("completed"));

  // The first burst is refused (16 at once against 3); the limit then settles at what the server takes.
  const refusals = server.capacity?.refusals ?? [];
  expect(refusals.length).toBeGreaterThan(0);
  // One endpoint, shared by the root and all its children; its limit settled at what the server takes.
  const [endpoint, ...others] = limiters.list();
  expect(others).toEqual([]);
  expect(endpoint?.state.limit).toBeLessThanOrEqual(3);
  // The refusals stop once the limit is learned: only requests of the first burst are refused (at most
  // the 13 beyond what the server takes), never one of the later rounds.
  expect(refusals.length).toBeLessThanOrEqual(16 - 3);
  // Children saw why they waited: the limit, or a retry-after the endpoint waits out (decision 0006,
  // amendment). Which of the two depends on how the machine spaced the children's first calls.
  const reasons = new Set(run.of("capacity_wait").map((event) => event.reason));
  expect([...reasons].every((reason) => reason === "limit" || reason === "retry_after")).toBe(true);
});
