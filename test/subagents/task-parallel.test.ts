import { afterEach, expect, test } from "vitest";
import type { AgentEvent } from "../../src/contracts/events.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import {
  CHILD_MARK,
  rootTree,
  runTree,
  serverModel,
  tempWorkspace,
  wireMessages,
  wireSystem,
  wireTexts,
} from "./support/subagent-harness.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const isChild = (request: RecordedRequest) => wireSystem(request.body).includes(CHILD_MARK);

/** Root: one message with `count` task calls, then a final answer; each child answers after `delayMs`. */
function fanOut(count: number, delayMs: number) {
  let rootCalls = 0;
  return (request: RecordedRequest) => {
    if (isChild(request)) {
      const prompt = wireTexts(wireMessages(request.body)[0]!)[0] ?? "";
      return { text: `report for ${prompt}`, delayMs };
    }
    rootCalls++;
    if (rootCalls > 1) return { text: "all done" };
    return {
      toolCalls: Array.from({ length: count }, (_, i) => ({
        id: `toolu_${i}`,
        name: "task",
        args: { description: `Part ${i}`, prompt: `part ${i}`, subagent_type: "explore" },
      })),
    };
  };
}

/** The most requests in flight at any moment. */
function maxOverlap(requests: RecordedRequest[]): number {
  const edges = requests.flatMap((r) => [
    { at: r.startedAt, delta: 1 },
    { at: r.finishedAt ?? Number.POSITIVE_INFINITY, delta: -1 },
  ]);
  // Ends before starts at the same instant: touching intervals do not overlap.
  edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let current = 0;
  let max = 0;
  for (const edge of edges) {
    current += edge.delta;
    max = Math.max(max, current);
  }
  return max;
}

/** How many children were running at each child's agent_start. */
function runningAtStarts(events: AgentEvent[]): number[] {
  let running = 0;
  const seen: number[] = [];
  for (const event of events) {
    if (event.agentPath.length !== 2) continue;
    if (event.type === "agent_start") seen.push(++running);
    if (event.type === "agent_end") running--;
  }
  return seen;
}

test("three task calls in one assistant message run concurrently", async () => {
  const workspace = await tempWorkspace();
  server = await startModelServer(fanOut(3, 300));
  const { config } = rootTree({ workspace, model: serverModel(server) });

  const run = await runTree(config, "Explore three parts.");
  expect(run.outcome.status).toBe("completed");
  const children = server.requests.filter(isChild);
  expect(children).toHaveLength(3);
  const lastStart = Math.max(...children.map((r) => r.startedAt));
  const firstEnd = Math.min(...children.map((r) => r.finishedAt ?? Number.POSITIVE_INFINITY));
  expect(lastStart).toBeLessThan(firstEnd);
  expect(maxOverlap(children)).toBe(3);
});

test("with 12 calls and a cap of 8, at most 8 children run at once and all 12 finish", async () => {
  const workspace = await tempWorkspace();
  // Long enough that a whole wave of 8 is in flight together even on a loaded machine.
  server = await startModelServer(fanOut(12, 400));
  const { config, runtime } = rootTree({
    workspace,
    model: serverModel(server),
    limits: { maxConcurrent: 8 },
  });
  expect(runtime.limits.maxConcurrent).toBe(8);

  const run = await runTree(config, "Explore twelve parts.");
  expect(run.outcome).toMatchObject({ status: "completed", text: "all done" });

  const children = server.requests.filter(isChild);
  expect(children).toHaveLength(12);
  expect(maxOverlap(children)).toBe(8);
  // agent_start is emitted only when a child really starts: never a 9th while 8 run.
  const starts = runningAtStarts(run.events);
  expect(starts).toHaveLength(12);
  expect(Math.max(...starts)).toBe(8);

  // The four that waited told the caller they were queued.
  const queued = run
    .of("tool_progress")
    .filter((e) => e.agentPath.length === 1 && e.update.startsWith("queued"));
  expect(queued).toHaveLength(4);

  // All twelve results reached the parent, each completed, in call order.
  const finalRequest = server.requests.filter((r) => !isChild(r)).at(-1)!;
  const results = wireMessages(finalRequest.body).at(-1)!;
  const texts = wireTexts(results);
  expect(texts).toHaveLength(12);
  texts.forEach((text, i) => {
    expect(text).toContain('status="completed"');
    expect(text).toContain(`report for part ${i}`);
  });
  expect(runtime.running).toBe(0);
  expect(runtime.started).toBe(12);
});
