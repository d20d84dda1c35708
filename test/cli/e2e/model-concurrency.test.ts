import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  server = undefined;
  ws = undefined;
});

const CHILD_MARK = "# You are a subagent";
const isChild = (request: RecordedRequest) => JSON.stringify(request.body.system ?? "").includes(CHILD_MARK);

/**
 * A read-only agent that names its model: its children's models are built by the registry (not the
 * parent's model object), on the root's endpoint, so only the run's shared limiters bound them together.
 */
const SCOUT = JSON.stringify({
  scout: {
    description: "Looks at one part",
    prompt: "Look and report.",
    tools: ["read"],
    model: "anthropic:claude-sonnet-5-5",
  },
});

/** The root starts `count` children of `agent` in one message; each answers after `delayMs`. */
function fanOut(count: number, delayMs: number, agent = "explore") {
  return (request: RecordedRequest) => {
    if (isChild(request)) return { text: "report", delayMs };
    const messages = request.body.messages as unknown[];
    if (messages.length > 1) return { text: "all done" };
    return {
      toolCalls: Array.from({ length: count }, (_, i) => ({
        name: "task",
        args: { description: `Part ${i}`, prompt: `Look at part ${i}.`, subagent_type: agent },
      })),
    };
  };
}

/** The most requests the server answered at once. */
function peakOverlap(requests: RecordedRequest[]): number {
  const edges = requests.flatMap((r) => [
    { at: r.startedAt, delta: 1 },
    { at: r.finishedAt ?? Number.POSITIVE_INFINITY, delta: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let now = 0;
  let peak = 0;
  for (const edge of edges) {
    now += edge.delta;
    peak = Math.max(peak, now);
  }
  return peak;
}

type Line = { type: string; agentPath: string[]; limit?: number; reason?: string };

describe("model concurrency from the command line", () => {
  it("--max-concurrency caps the model calls of the whole tree; stream-json shows the children that wait and the limit", async () => {
    ws = await makeWorkspace();
    server = await startModelServer(fanOut(5, 300, "scout"));
    const result = await runCli(
      [
        "run",
        "--max-concurrency",
        "2",
        "--agents",
        SCOUT,
        "--output-format",
        "stream-json",
        "Explore five parts.",
      ],
      { cwd: ws.dir, env: { ...ws.env, ...providerEnv(server, "anthropic") } },
    );
    expect(result.stderr).not.toContain("error");
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Line);
    expect(lines.at(-1)).toMatchObject({ type: "result", outcome: "completed" });
    expect(server.requests.filter(isChild)).toHaveLength(5);
    expect(peakOverlap(server.requests)).toBe(2);
    const waits = lines.filter((line) => line.type === "capacity_wait");
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(
      waits.every((line) => line.agentPath.length === 2 && line.limit === 2 && line.reason === "limit"),
    ).toBe(true);
    expect(lines.filter((line) => line.type === "capacity_granted").length).toBe(waits.length);
  });

  it("modelConcurrency in agentry.json sets it too; a minimum above the maximum is a usage error", async () => {
    ws = await makeWorkspace({ "agentry.json": JSON.stringify({ modelConcurrency: { max: 1 } }) });
    server = await startModelServer(fanOut(3, 200));
    const env = { ...ws.env, ...providerEnv(server, "anthropic") };
    const result = await runCli(["run", "Explore three parts."], { cwd: ws.dir, env });
    expect(result.code).toBe(0);
    expect(peakOverlap(server.requests)).toBe(1);

    await ws.write("agentry.json", JSON.stringify({ modelConcurrency: { min: 4 } }));
    const bad = await runCli(["run", "--max-concurrency", "2", "Explore."], { cwd: ws.dir, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "modelConcurrency.min (4) is above the most model calls allowed at once (2, from --max-concurrency)",
    );
  });
});
