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
  const limiters = new ModelLimiters();
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
  const lastSent = Math.max(...server.requests.map((request) => request.startedAt));
  const lastRefused = Math.max(...refusals);
  // No refusal in the last part of the run: the remaining children went through 3 at a time.
  expect(lastSent - lastRefused).toBeGreaterThan(200);
  // Children saw why they waited: the limit. The server took 3 of the first burst while it refused the
  // rest, so once those 3 had ended the limiter let the others go within the limit; only the refused
  // calls waited out the retry-after, in their retries (decision 0006, amendment).
  const reasons = new Set(run.of("capacity_wait").map((event) => event.reason));
  expect(reasons).toEqual(new Set(["limit"]));
});

test("rate-limit headers: once a response says the window is nearly spent, calls wait for it instead of drawing 429s", async () => {
  // 4 requests per 1.2 s; each answer says what is left (OpenAI's x-ratelimit-*-requests).
  server = await startModelServer(
    { text: "ok" },
    { capacity: { rate: { requests: 4, windowMs: 1200 }, headers: true } },
  );
  const settings = {
    openai: { apiKey: "test-key", baseUrl: server.openaiBaseUrl },
    retry: { maxRetries: 0 },
  };
  const limited = createModel("openai:gpt-test", settings, {}, { limiters: new ModelLimiters() });
  const ask = async () => {
    const stream = limited.stream({ system: "", messages: [], tools: [] });
    for await (const _ of stream);
    return stream.result();
  };

  // The first answer brings the window (3 left); the next 8 calls, sent together, fit it only by waiting.
  expect((await ask()).stopReason).toBe("stop");
  const started = Date.now();
  const results = await Promise.all(Array.from({ length: 8 }, ask));
  expect(results.map((message) => message.stopReason)).toEqual(Array(8).fill("stop"));
  expect(server.capacity?.refusals).toEqual([]);
  // 5 of the 8 wait for the window to refill at 4 per 1.2 s: ~1.5 s.
  expect(Date.now() - started).toBeGreaterThan(1200);

  // Without the limiter the same burst is refused.
  const unlimited = createModel("openai:gpt-test", settings, {});
  const burst = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const stream = unlimited.stream({ system: "", messages: [], tools: [] });
      for await (const _ of stream);
      return (await stream.result()).stopReason;
    }),
  );
  expect(burst).toContain("error");
});
