import { afterEach, describe, expect, it } from "vitest";
import { wireToolNames } from "../../subagents/support/subagent-harness.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { serverEverythingConfig } from "../../support/server-everything.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { type Protocol, providerEnv } from "../support/provider-env.ts";

// The reference MCP server (server-everything) in `agentry run`, started for real.

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

async function run(protocol: Protocol, config: Record<string, unknown>, script: unknown, args: string[]) {
  ws = await makeWorkspace({
    "agentry.json": JSON.stringify({ mcpServers: { everything: serverEverythingConfig() }, ...config }),
  });
  await ws.trust();
  server = await startModelServer(script as Parameters<typeof startModelServer>[0]);
  return runCli(["run", ...args], { cwd: ws.dir, env: { ...ws.env, ...providerEnv(server, protocol) } });
}

/** The model calls one tool on its first turn, then answers. */
const callOnce = (name: string, args: Record<string, unknown> = {}) => [
  { toolCalls: [{ name, args }] },
  { text: "done" },
];

function hasImage(request: RecordedRequest | undefined): boolean {
  const text = JSON.stringify(request?.body ?? {});
  return (
    /"type":"image","source":\{"type":"base64","media_type":"image\/png"/.test(text) ||
    /"type":"input_image","image_url":"data:image\/png;base64,/.test(text)
  );
}

describe.each<Protocol>(["anthropic", "openai"])("server-everything with %s", (protocol) => {
  it("get-tiny-image's image reaches the model as an image block", async () => {
    const result = await run(protocol, {}, callOnce("mcp__everything__get-tiny-image"), [
      "--permission-mode",
      "bypass",
      "Show me the tiny image",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(hasImage(server?.requests[0])).toBe(false);
    expect(hasImage(server?.requests[1])).toBe(true);
  });
});

describe("server-everything in a run", () => {
  it("a long-running tool's progress shows in stream-json as tool_progress events", async () => {
    const result = await run(
      "anthropic",
      {},
      callOnce("mcp__everything__trigger-long-running-operation", { duration: 0.6, steps: 3 }),
      ["--permission-mode", "bypass", "--output-format", "stream-json", "Run the long operation"],
    );
    expect(result.code, result.stderr).toBe(0);
    const events = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; update?: string; name?: string });
    const progress = events.filter((event) => event.type === "tool_progress");
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]).toMatchObject({
      name: "mcp__everything__trigger-long-running-operation",
      update: "1/3 (33%)",
    });
  });

  it("a tool whose rules deny it is not offered to the root model, nor is bash denied '*'", async () => {
    const permission = [
      { permission: "bash", pattern: "*", action: "deny" },
      { permission: "mcp__everything__get-env", pattern: "*", action: "deny" },
    ];
    const result = await run("anthropic", { permission }, { text: "ok" }, ["Hello"]);
    expect(result.code, result.stderr).toBe(0);
    const tools = wireToolNames(server?.requests[0]?.body ?? {});
    expect(tools).toEqual(expect.arrayContaining(["read", "mcp__everything__echo", "read_mcp_resource"]));
    expect(tools).not.toContain("bash");
    expect(tools).not.toContain("mcp__everything__get-env");
  });

  it("an elicitation is declined when no one can answer it, and the model is told so", async () => {
    const result = await run("anthropic", {}, callOnce("mcp__everything__trigger-elicitation-request"), [
      "--permission-mode",
      "bypass",
      "Ask me something",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.stringify(server?.requests[1]?.body)).toContain("User declined");
  });

  it("sampling needs mcp_sampling: denied without a person or a rule, answered by the run's model with an allow rule", async () => {
    const tools = { permission: "mcp__everything__*", pattern: "*", action: "allow" };
    const denied = await run(
      "anthropic",
      { permission: [tools] },
      callOnce("mcp__everything__trigger-sampling-request", { prompt: "hi" }),
      ["Sample"],
    );
    expect(denied.code, denied.stderr).toBe(0);
    expect(server?.requests).toHaveLength(2);
    expect(JSON.stringify(server?.requests[1]?.body)).toMatch(
      /mcp_sampling 'everything'.*needs approval and no one can approve it/,
    );

    const sampling = { permission: "mcp_sampling", pattern: "everything", action: "allow" };
    const allowed = await run(
      "anthropic",
      { permission: [tools, sampling] },
      [
        { toolCalls: [{ name: "mcp__everything__trigger-sampling-request", args: { prompt: "hi" } }] },
        { text: "sampled reply" },
        { text: "done" },
      ],
      ["Sample"],
    );
    expect(allowed.code, allowed.stderr).toBe(0);
    // Request 1 is the server's sampling call through the run's model; request 2 carries its answer.
    expect(JSON.stringify(server?.requests[1]?.body)).toContain(
      "Resource trigger-sampling-request context: hi",
    );
    expect(JSON.stringify(server?.requests[2]?.body)).toContain("sampled reply");
  });

  it("agentry mcp list shows its tools as a run sees them, its prompts and its resources", async () => {
    ws = await makeWorkspace({
      "agentry.json": JSON.stringify({ mcpServers: { everything: serverEverythingConfig() } }),
    });
    await ws.trust();
    const result = await runCli(["mcp", "list", "--json"], { cwd: ws.dir, env: ws.env });
    expect(result.code, result.stderr).toBe(0);
    const [report] = JSON.parse(result.stdout) as Array<{
      tools: string[];
      prompts: string[];
      resources: boolean;
    }>;
    expect(report?.tools).toContain("mcp__everything__trigger-sampling-request");
    expect(report?.prompts).toContain("/mcp__everything__simple-prompt");
    expect(report?.resources).toBe(true);
  });
});
