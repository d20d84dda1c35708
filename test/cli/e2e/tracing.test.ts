import { afterEach, expect, it } from "vitest";
import { wireMessages, wireSystem } from "../../subagents/support/subagent-harness.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { type OtlpReceiver, startOtlpReceiver } from "../../support/otlp-receiver.ts";
import { makeWorkspace, runCli } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let server: ModelServer | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await server?.close();
  await receiver?.close();
  server = undefined;
  receiver = undefined;
});

/** The root sends two explore children at once, each answers, then the root answers. */
function delegation(request: RecordedRequest) {
  const child = wireSystem(request.body).includes("# You are a subagent");
  if (child) return { text: "child report" };
  if (wireMessages(request.body).length === 1)
    return {
      toolCalls: ["auth", "billing"].map((area) => ({
        name: "task",
        args: { description: `look at ${area}`, prompt: `How does ${area} work?`, subagent_type: "explore" },
      })),
    };
  return { text: "root done" };
}

it("a run with children exports one trace whose spans nest as the tree did, on the GenAI conventions", async () => {
  const ws = await makeWorkspace({ "src/a.ts": "export const a = 1;\n" });
  server = await startModelServer(delegation);
  receiver = await startOtlpReceiver();
  const traceparent = `00-${"4b".repeat(16)}-${"5c".repeat(8)}-01`;
  const result = await runCli(["run", "Explore auth and billing"], {
    cwd: ws.dir,
    env: {
      ...ws.env,
      ...providerEnv(server, "anthropic"),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_HEADERS: "x-team=agents%20team",
      OTEL_SERVICE_NAME: "agentry-test",
      TRACEPARENT: traceparent,
    },
  });
  expect(result.code, result.stderr).toBe(0);
  const spans = receiver.spans;
  expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set(["4b".repeat(16)]));
  expect(receiver.requests[0]?.headers["x-team"]).toBe("agents team");
  expect(spans.every((span) => span.service === "agentry-test")).toBe(true);
  const named = (name: string) => spans.filter((span) => span.name === name);
  const [root] = named("invoke_agent main");
  expect(root?.parentSpanId).toBe("5c".repeat(8));
  expect(root?.attributes).toMatchObject({
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": "main",
    "gen_ai.provider.name": "anthropic",
    "agentry.outcome": "completed",
  });
  const tasks = named("execute_tool task");
  expect(tasks).toHaveLength(2);
  expect(
    tasks.every(
      (task) => task.parentSpanId === root?.spanId && task.attributes["gen_ai.tool.name"] === "task",
    ),
  ).toBe(true);
  const children = named("invoke_agent explore");
  expect(children).toHaveLength(2);
  for (const child of children) {
    const call = tasks.find((task) => task.spanId === child.parentSpanId);
    expect(
      call,
      `the child "${String(child.attributes["gen_ai.agent.description"])}" hangs under a task call`,
    ).toBeDefined();
    const chats = spans.filter((span) => span.parentSpanId === child.spanId && span.name.startsWith("chat "));
    expect(chats).toHaveLength(1);
    expect(chats[0]?.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.response.finish_reasons": ["stop"],
    });
    expect(typeof chats[0]?.attributes["gen_ai.usage.input_tokens"]).toBe("number");
  }
  expect(named("chat claude-sonnet-5-5").filter((span) => span.parentSpanId === root?.spanId)).toHaveLength(
    2,
  );
  // Content is not recorded unless asked.
  expect(JSON.stringify(spans)).not.toContain("How does auth work?");
});

it("tracing is off without an endpoint: nothing is sent", async () => {
  const ws = await makeWorkspace();
  server = await startModelServer({ text: "ok" });
  receiver = await startOtlpReceiver();
  const result = await runCli(["run", "hi"], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(server, "anthropic") },
  });
  expect(result.code, result.stderr).toBe(0);
  expect(receiver.requests).toEqual([]);
});
