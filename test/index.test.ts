import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
// The package entry, by its published name (package.json "exports"), as a user imports it.
import * as agentry from "agentry-ai";
import {
  AgentRegistry,
  builtinTools,
  DEFAULT_RULES,
  loadAgentDefinitions,
  nodeOperations,
  userText,
} from "agentry-ai";
import { scriptedModel } from "agentry-ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bodyText, providerEnv } from "./cli/support/provider-env.ts";
import { docBlock, runDocExample } from "./support/doc-example.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "./support/model-server.ts";
import { tempDir } from "./support/temp-dir.ts";

let workspace: string;
let home: string;
let server: ModelServer | undefined;
beforeEach(async () => {
  workspace = await tempDir("agentry-lib-");
  home = await tempDir("agentry-lib-home-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The heading of the harness preamble in every child's system prompt. */
const CHILD = "# You are a subagent";

const isChild = (request: RecordedRequest) => JSON.stringify(request.body.system ?? "").includes(CHILD);
const toolNames = (request: RecordedRequest | undefined) =>
  ((request?.body.tools ?? []) as { name: string }[]).map((tool) => tool.name);

/** Runs a documented example as its own script, against the test model server as Anthropic. */
function runExample(code: string, model: ModelServer) {
  return runDocExample(code, { cwd: workspace, env: { HOME: home, ...providerEnv(model, "anthropic") } });
}

describe("the library examples of the docs, run as they are written", () => {
  it("README.md: one agent with the built-in tools streams its answer and stores its session", async () => {
    await mkdir(join(workspace, "src"));
    await writeFile(join(workspace, "src/cart.ts"), "// TODO: apply the discount\n");
    server = await startModelServer([
      { toolCalls: [{ name: "read", args: { path: "src/cart.ts" } }] },
      { text: "One TODO: apply the discount." },
    ]);

    const result = await runExample(docBlock("README.md", "As a library"), server);

    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("One TODO: apply the discount.completed\n");
    expect(server.requests).toHaveLength(2);
    expect(bodyText(server, 0)).toContain("List the TODOs in src/");
    expect(server.requests[0]?.body.model).toBe("claude-sonnet-5-5");
    // The read ran for real: the model's second call carries the file.
    expect(bodyText(server, 1)).toContain("TODO: apply the discount");
    const stored = await agentry.listSessions(workspace);
    expect(stored).toHaveLength(1);
  });

  it("docs/library.md: delegating to subagents starts the registered agent and records its task", async () => {
    await writeFile(join(workspace, "README.md"), "# cartkit\nA shopping cart in TypeScript.\n");
    server = await startModelServer((request) => {
      const answered = JSON.stringify(request.body.messages).includes('"tool_result"');
      if (isChild(request)) {
        return answered
          ? { text: "cartkit: a shopping cart in TypeScript." }
          : { toolCalls: [{ name: "read", args: { path: "README.md" } }] };
      }
      if (!answered) {
        const args = {
          description: "Summarize README",
          prompt: "Summarize README.md",
          subagent_type: "summarizer",
        };
        return { toolCalls: [{ name: "task", args }] };
      }
      const reported = JSON.stringify(request.body.messages).includes("a shopping cart in TypeScript");
      return { text: reported ? "The README describes a shopping cart." : "no report" };
    });

    const result = await runExample(docBlock("docs/library.md", "Delegating to subagents"), server);

    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("started main/summarizer-1\nThe README describes a shopping cart.\n");
    // The root's tool list gained `task` (the task_* control tools wait for a child in the
    // background); the child got only what its definition lists.
    const rootRequest = server.requests.find((request) => !isChild(request));
    const childRequest = server.requests.find(isChild);
    expect(toolNames(rootRequest).filter((name) => name.startsWith("task"))).toEqual(["task"]);
    expect(toolNames(childRequest)).toEqual(["read"]);
    // Fresh context: the child's first request holds only its prompt.
    const childMessages = childRequest?.body.messages as unknown[];
    expect(childMessages).toHaveLength(1);
    expect(JSON.stringify(childMessages)).toContain("Summarize README.md");
    expect(JSON.stringify(childMessages)).not.toContain("with the summarizer agent");

    // The task's record is in the workspace store, COMPLETED, with the child's report.
    const store = new agentry.WorkspaceTaskStore({ workspace });
    const [record] = await store.list();
    expect(record).toMatchObject({
      agentType: "summarizer",
      status: "COMPLETED",
      result: "cartkit: a shopping cart in TypeScript.",
      parentAgentId: "main",
    });
    expect(agentry.TASK_STATUSES).toContain(record?.status);
    const sweep = await agentry.sweepOrphans(store, { staleAfterMs: 30_000 });
    expect(sweep.orphaned).toEqual([]);
  });
});

describe("the public library API", () => {
  it("withSubagents gives the root the task tools only while it may spawn", () => {
    const model = scriptedModel([]);
    const root = {
      name: "main",
      model,
      systemPrompt: "",
      tools: builtinTools(),
      workspace,
      ops: nodeOperations,
    };
    const options = {
      registry: new AgentRegistry({ definitions: agentry.builtinAgents() }),
      createModel: () => model,
      baseTools: builtinTools,
      permission: { rules: DEFAULT_RULES, mode: "default" as const },
    };
    const names = (config: agentry.AgentConfig) => config.tools.map((t) => t.name);
    expect(names(agentry.withSubagents(root, options))).toContain("task");
    expect(names(agentry.withSubagents(root, { ...options, limits: { maxDepth: 0 } }))).not.toContain("task");
    const denied = [...DEFAULT_RULES, { permission: "task", pattern: "*", action: "deny" as const }];
    expect(
      names(agentry.withSubagents(root, { ...options, permission: { rules: denied, mode: "default" } })),
    ).not.toContain("task");
    expect(() => agentry.withSubagents(root, { ...options, limits: { maxConcurrent: 0 } })).toThrow(
      agentry.SubagentLimitsConfigError,
    );
  });

  it("loads agent files in every format and reports the messy ones", async () => {
    await mkdir(join(workspace, ".claude/agents"), { recursive: true });
    await writeFile(
      join(workspace, ".claude/agents/reviewer.md"),
      "---\nname: reviewer\ndescription: Reviews code: carefully\ntools: Read, Grep, Frobnicate\n---\nReview.\n",
    );
    await writeFile(join(workspace, ".claude/agents/notes.md"), "just notes, no front matter\n");
    const loaded = await loadAgentDefinitions({ projectDir: workspace, homeDir: home });
    const names = loaded.definitions.map((d) => d.name).sort();
    expect(names).toEqual(["explore", "general-purpose", "plan", "review", "reviewer"]);
    expect(loaded.definitions.find((d) => d.name === "reviewer")?.tools).toEqual(["read", "grep"]);
    expect(agentry.hasErrors(loaded.diagnostics)).toBe(true);
    const report = agentry.formatDiagnostics(loaded.diagnostics, { cwd: workspace });
    expect(report).toContain(".claude/agents/notes.md: error: no front matter");
    expect(report).toContain("unknown tool Frobnicate");

    const codex = agentry.loadAgentFile(
      'name = "fixer"\ndescription = "Fixes"\ndeveloper_instructions = "Fix it."\nsandbox_mode = "read-only"\n',
      "/x/fixer.toml",
      { format: "codex" },
    );
    expect(codex.definition).toMatchObject({
      name: "fixer",
      prompt: "Fix it.",
      disallowedTools: ["write", "edit"],
    });
  });

  it("exports the contracts' runtime values; the CLI has its own entry", async () => {
    expect(agentry.EVENT_SCHEMA_VERSION).toBe(1);
    expect("main" in agentry).toBe(false);
    const cli = await import("agentry-ai/cli");
    expect(cli.EXIT_CODES).toMatchObject({ completed: 0, usage: 2, aborted: 130 });
    expect(typeof cli.main).toBe("function");
    expect(agentry.PERMISSION_MODES).toEqual(["default", "accept-edits", "bypass", "plan"]);
    expect(agentry.DEFAULT_SUBAGENT_LIMITS).toMatchObject({
      maxDepth: 1,
      maxConcurrent: 64,
      maxDescendants: 64,
    });
    expect(typeof agentry.createModel).toBe("function");
    expect(typeof agentry.buildSystemPrompt).toBe("function");
    expect(typeof agentry.createPermissionGate).toBe("function");
    expect(typeof agentry.defineTool).toBe("function");
    expect(() => agentry.createModel("nosuchprovider:x")).toThrow(agentry.ModelConfigError);
  });

  it("exports the model limiters, so a library user's tree can share one limit per endpoint", async () => {
    expect(agentry.DEFAULT_LIMITER_OPTIONS).toMatchObject({ initial: 16, max: 32 });
    const limiters = new agentry.ModelLimiters({ max: 1 });
    const model = agentry.withLimiter(scriptedModel({ text: "ok", delayMs: 20 }), limiters.for("scripted"));
    const streams = [
      model.stream({ system: "", messages: [], tools: [] }),
      model.stream({ system: "", messages: [], tools: [] }),
    ];
    const seen: string[] = [];
    for await (const event of streams[1]!) seen.push(event.type);
    expect(seen.slice(0, 2)).toEqual(["capacity_wait", "capacity_granted"]);
    expect((await streams[0]!.result()).stopReason).toBe("stop");
    expect(limiters.list()).toEqual([{ endpoint: "scripted", state: { limit: 1, inFlight: 0, waiting: 0 } }]);
  });

  it("exports the helpers for forks and secrets", () => {
    const history = [
      userText("find the bug"),
      {
        role: "assistant" as const,
        content: [{ type: "tool_call" as const, id: "c1", name: "read", args: {}, rawArgs: "{}" }],
        stopReason: "tool_calls" as const,
        usage: agentry.emptyUsage(),
        model: "m",
      },
      {
        role: "assistant" as const,
        content: [{ type: "text" as const, text: "it is in cart.ts" }],
        stopReason: "stop" as const,
        usage: agentry.emptyUsage(),
        model: "m",
      },
    ];
    expect(agentry.forkHistory(history, "all").map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(agentry.forkHistory(history, "none")).toEqual([]);
    const redact = agentry.createRedactor({ MY_API_KEY: "sk-1234567890" });
    expect(redact("key=sk-1234567890")).toBe("key=[REDACTED:MY_API_KEY]");
  });
});
