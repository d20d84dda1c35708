import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
// The package entry, by its published name (package.json "exports"), as a user imports it.
import * as agentry from "agentry-ai";
import {
  AgentRegistry,
  attachSubagents,
  builtinTools,
  DEFAULT_RULES,
  loadAgentDefinitions,
  type Model,
  nodeOperations,
  runAgent,
  Session,
  userText,
} from "agentry-ai";
import { type ScriptedReply, scriptedModel } from "agentry-ai/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "./support/temp-dir.ts";

let workspace: string;
let home: string;
beforeEach(async () => {
  workspace = await tempDir("agentry-lib-");
  home = await tempDir("agentry-lib-home-");
});

/** The heading of the harness preamble in every child's system prompt. */
const CHILD = "# You are a subagent";

/**
 * The README's second library example ("Delegating to subagents"), line for line except that the
 * model is passed in and `homeDir` keeps the test away from the real home folder.
 */
async function readmeDelegationExample(model: Model, createModel: (id: string) => Model) {
  const loaded = await loadAgentDefinitions({ projectDir: workspace, homeDir: home });
  const registry = new AgentRegistry(loaded);
  registry.register({
    name: "summarizer",
    description: "Summarizes one file in three lines.",
    prompt: "Read the file you are given and summarize it in three lines.",
    tools: ["read"],
  });

  const { config, runtime } = attachSubagents(
    {
      name: "main",
      model,
      systemPrompt: "You are a careful coding agent.",
      tools: builtinTools(),
      workspace,
      ops: nodeOperations,
    },
    {
      registry,
      createModel, // builds a child's model when the call or its definition names one
      baseTools: builtinTools, // what a definition's `tools` list picks from
      permission: { rules: DEFAULT_RULES, mode: "default" },
      limits: { maxConcurrent: 4 },
    },
  );
  const session = await Session.create({ workspace, agentName: "main", model: model.id });
  await session.append(userText("Summarize README.md with the summarizer agent"));
  const run = runAgent(config, session);
  const started: string[] = [];
  try {
    for await (const event of run) {
      if (event.type === "agent_start" && event.agentPath.length > 1) started.push(event.agentPath.join("/"));
    }
    return { outcome: await run.outcome, started, session, registry };
  } finally {
    await runtime.shutdown();
    session.close();
  }
}

describe("the public library API", () => {
  it("runs an agent with built-in tools, as the README shows", async () => {
    const { buildSystemPrompt } = agentry;
    await writeFile(join(workspace, "todo.txt"), "TODO: write docs\n");
    const model = scriptedModel([
      { toolCalls: [{ name: "read", args: { path: "todo.txt" } }] },
      { text: "One TODO: write docs." },
    ]);
    const session = await Session.create({ workspace, agentName: "main", model: model.id });
    await session.append(userText("List the TODOs"));
    const run = runAgent(
      {
        name: "main",
        model,
        systemPrompt: await buildSystemPrompt({ workspace }),
        tools: builtinTools(),
        workspace,
        ops: nodeOperations,
      },
      session,
    );
    const types: string[] = [];
    for await (const event of run) types.push(event.type);
    const outcome = await run.outcome;
    expect(outcome).toMatchObject({ status: "completed", text: "One TODO: write docs.", turns: 2 });
    expect(types).toContain("tool_end");
    expect(JSON.stringify(model.requests[1]?.messages)).toContain("TODO: write docs");
    const stored = await agentry.listSessions(workspace);
    expect(stored.map((s) => s.id)).toEqual([session.id]);
  });

  it("delegates to a subagent as the README's second example shows, and records the task", async () => {
    await writeFile(join(workspace, "README.md"), "# cartkit\nA shopping cart in TypeScript.\n");
    const model = scriptedModel((request): ScriptedReply => {
      const results = request.messages.filter((m) => m.role === "tool_result");
      if (request.system.includes(CHILD)) {
        return results.length === 0
          ? { toolCalls: [{ name: "read", args: { path: "README.md" } }] }
          : { text: "cartkit: a shopping cart in TypeScript." };
      }
      if (results.length === 0) {
        const args = {
          description: "Summarize README",
          prompt: "Summarize README.md",
          subagent_type: "summarizer",
        };
        return { toolCalls: [{ name: "task", args }] };
      }
      const report = JSON.stringify(results.at(-1)).includes("a shopping cart in TypeScript");
      return { text: report ? "The README describes a shopping cart." : "no report" };
    });

    const { outcome, started, session, registry } = await readmeDelegationExample(model, () => model);

    expect(outcome).toMatchObject({ status: "completed", text: "The README describes a shopping cart." });
    expect(started).toEqual(["main/summarizer-1"]);
    // The root's tool list gained the spawn family; the child got only what its definition lists.
    const [rootRequest, childRequest] = model.requests;
    expect(rootRequest?.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["task", "task_send", "task_wait", "task_output", "task_cancel", "task_list"]),
    );
    expect(childRequest?.tools.map((t) => t.name)).toEqual(["read"]);
    // Fresh context: the child's first request holds only its prompt.
    expect(childRequest?.messages).toEqual([userText("Summarize README.md")]);
    expect(registry.get("summarizer")?.source.kind).toBe("programmatic");

    // The task's record is in the workspace store, COMPLETED, with the child's report.
    const store = new agentry.WorkspaceTaskStore({ workspace });
    const [record] = await store.list({ parentSessionId: session.id });
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
