import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { wireMessages, wireTexts } from "../../subagents/support/subagent-harness.ts";
import { describeWith, REDIS } from "../../support/components.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../../support/otlp-receiver.ts";
import { until } from "../../support/processes.ts";
import { type RedisServer, startRedisServer } from "../../support/redis-server.ts";
import type { ServerReply } from "../../support/server-reply.ts";
import { finished, makeWorkspace, spawnCli } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";
import { SERVE_PROCESS_TOKEN, startServeProcess } from "../support/serve-process.ts";

// One trace across three processes: `agentry run --queue` delegates to an A2A agent behind `agentry
// serve` and to a child on an `agentry worker`, which starts two children of its own there. Each
// process exports the spans of the agents it runs, to one OTLP receiver; the trace context travels in
// the job (the child's spec) and in the A2A request's `traceparent` header.

const cleanup: Array<() => Promise<unknown>> = [];
let redis: RedisServer | undefined;
let model: ModelServer | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  await model?.close();
  await receiver?.close();
  await redis?.stop();
  model = undefined;
  receiver = undefined;
  redis = undefined;
});

const task = (description: string, subagentType: string) => ({
  name: "task",
  args: { description, prompt: description, subagent_type: subagentType },
});

/** Every agent of the tree, told apart by its prompt. */
function answer(request: RecordedRequest): ServerReply {
  const messages = wireMessages(request.body);
  const texts = messages.flatMap(wireTexts);
  const prompt = texts[0] ?? "";
  const turn = messages.filter((message) => message.role === "assistant").length;
  if (prompt.startsWith("Trace the tree"))
    return turn === 0
      ? { toolCalls: [task("ask far", "far"), task("fleet work", "general-purpose")] }
      : { text: "root done" };
  if (prompt.startsWith("fleet work"))
    return turn === 0
      ? { toolCalls: [task("local one", "explore"), task("local two", "explore")] }
      : { text: "fleet done" };
  return { text: `${prompt} answered` };
}

describeWith(REDIS, "a traced run across processes", () => {
  it("2 children on a worker under a fleet child, and an A2A child behind serve: one trace that nests as the tree did", async () => {
    redis = await startRedisServer();
    model = await startModelServer(answer);
    receiver = await startOtlpReceiver();
    const otel = (service: string) => ({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver?.url ?? "",
      OTEL_SERVICE_NAME: service,
    });

    const far = await makeWorkspace();
    const served = await startServeProcess(far, model, cleanup, otel("far-serve"));

    const ws = await makeWorkspace({
      ".agentry/agents/far.md": `---\nname: far\ndescription: An agent on another agentry.\nurl: ${served.url("explore")}\nheaders:\n  Authorization: Bearer \${FAR_TOKEN}\n---\n`,
    });
    await ws.trust();
    await ws.userConfig({ subagents: { maxDepth: 2 } });
    const queue = `q${randomBytes(4).toString("hex")}`;
    const env = { ...ws.env, ...providerEnv(model, "anthropic"), AGENTRY_REDIS_URL: redis.url };

    const home = join(ws.dir, "..", "worker-home");
    await mkdir(home, { recursive: true });
    const worker = spawnCli(["worker", "--queue", queue], {
      cwd: home,
      env: { ...env, HOME: home, ...otel("fleet-worker") },
    });
    const workerExit = finished(worker);
    cleanup.push(async () => {
      worker.kill("SIGTERM");
      await workerExit;
    });
    let workerLog = "";
    worker.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      workerLog += chunk;
    });
    expect(await until(() => workerLog.includes("takes jobs"), 30_000)).toBe(true);

    const result = await finished(
      spawnCli(["run", "--queue", queue, "--permission-mode", "bypass", "Trace the tree"], {
        cwd: ws.dir,
        env: { ...env, FAR_TOKEN: SERVE_PROCESS_TOKEN, ...otel("parent") },
      }),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("root done");

    // The worker and serve send their spans in batches, as they end.
    const spans = () => receiver?.spans ?? [];
    const of = (service: string, name: string) =>
      spans().filter((span) => span.service === service && span.name === name);
    expect(
      await until(
        () =>
          of("fleet-worker", "invoke_agent explore").length === 2 &&
          of("far-serve", "invoke_agent explore").length === 1,
        30_000,
      ),
      JSON.stringify(spans().map((span) => [span.service, span.name])),
    ).toBe(true);

    // One trace, from all three processes.
    expect(new Set(spans().map((span) => span.traceId)).size).toBe(1);
    expect(new Set(spans().map((span) => span.service))).toEqual(
      new Set(["parent", "fleet-worker", "far-serve"]),
    );
    const byId = new Map(spans().map((span) => [span.spanId, span]));
    const parentOf = (span: ReceivedSpan | undefined) =>
      span?.parentSpanId === undefined ? undefined : byId.get(span.parentSpanId);

    const [root] = of("parent", "invoke_agent main");
    expect(root?.parentSpanId).toBeUndefined();
    const calls = of("parent", "execute_tool task");
    expect(calls).toHaveLength(2);
    expect(calls.every((call) => call.parentSpanId === root?.spanId)).toBe(true);
    const fleetCall = calls.find((call) => call.attributes["agentry.child.runs_on"] === `queue ${queue}`);
    const farCall = calls.find((call) => call.attributes["agentry.child.runs_on"] === served.url("explore"));
    expect(fleetCall).toBeDefined();
    expect(farCall).toBeDefined();
    // Each agent's spans come once, from where it runs: the parent has none of its remote children's.
    expect(
      spans().filter((span) => span.service === "parent" && span.name.startsWith("invoke_agent")),
    ).toEqual([root]);

    // The fleet child on the worker hangs under the task call that started it; its own children there
    // under its task calls; each agent's model calls under it.
    const [fleetChild] = of("fleet-worker", "invoke_agent general-purpose");
    expect(parentOf(fleetChild)).toBe(fleetCall);
    expect(fleetChild?.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "general-purpose",
      "gen_ai.provider.name": "anthropic",
      "agentry.outcome": "completed",
    });
    for (const local of of("fleet-worker", "invoke_agent explore")) {
      const call = parentOf(local);
      expect(call?.name).toBe("execute_tool task");
      expect(parentOf(call)).toBe(fleetChild);
      const chats = spans().filter(
        (span) => span.parentSpanId === local.spanId && span.name.startsWith("chat "),
      );
      expect(chats).toHaveLength(1);
      expect(chats[0]?.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.response.finish_reasons": ["stop"],
      });
    }

    // The A2A child behind serve hangs under its task call, through the request's traceparent.
    const [farAgent] = of("far-serve", "invoke_agent explore");
    expect(parentOf(farAgent)).toBe(farCall);
    expect(
      spans().some((span) => span.parentSpanId === farAgent?.spanId && span.name.startsWith("chat ")),
    ).toBe(true);
  }, 180_000);
});
