import { readFile } from "node:fs/promises";
import { afterEach, expect, test } from "vitest";
import { CHILD_MARK, wireMessages, wireSystem, wireTexts } from "../../subagents/support/subagent-harness.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { reviewAnswer } from "../../workflows/support/workflow-harness.ts";
import { makeWorkspace, runCli } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CLAUDE_REVIEW = new URL("../../workflows/fixtures/claude-review.js.fixture", import.meta.url);
const promptOf = (request: RecordedRequest) => wireTexts(wireMessages(request.body)[0]!)[0] ?? "";

async function reviewServer(): Promise<ModelServer> {
  return startModelServer((request) => ({ text: reviewAnswer(promptOf(request)) }));
}

test("agentry workflow run runs a saved Claude Code workflow unchanged, by name, and prints its result", async () => {
  const ws = await makeWorkspace({
    ".claude/workflows/claude-review.js": await readFile(CLAUDE_REVIEW, "utf8"),
  });
  server = await reviewServer();
  const result = await runCli(
    [
      "workflow",
      "run",
      "claude-review",
      "--args",
      '{"areas": ["api", "cli"]}',
      "--permission-mode",
      "bypass",
    ],
    { cwd: ws.dir, env: { ...ws.env, ...providerEnv(server, "anthropic") } },
  );

  expect(result.stderr).toContain("workflow claude-review");
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toEqual({ confirmed: ["api-bug", "cli-bug"] });
  // 2 reviewers, then one verifier per finding.
  expect(server.requests.map(promptOf).filter((p) => p.startsWith("Review"))).toHaveLength(2);
  expect(server.requests.map(promptOf).filter((p) => p.startsWith("Verify"))).toHaveLength(4);
  expect(result.stderr).toContain("4 findings to verify");
  // Off a terminal, the tree is one line per start and end: each agent under its phase, and the
  // totals count agents, not the workflow's and phases' own nodes.
  expect(result.stderr).toContain("[claude-review/review] started phase: Review");
  expect(result.stderr).toMatch(/\[claude-review\/verify\/general-purpose-\d\] started general-purpose \(/);
  expect(result.stderr).toMatch(/\[total\] 6 agents \(6 done\)/);
});

test("stream-json carries the workflow's events and its agents' events, each agent under its phase", async () => {
  const ws = await makeWorkspace({ "review.js": await readFile(CLAUDE_REVIEW, "utf8") });
  server = await reviewServer();
  const result = await runCli(
    [
      "workflow",
      "run",
      "review.js",
      "--args",
      '{"areas": ["api"]}',
      "--permission-mode",
      "bypass",
      "-o",
      "stream-json",
    ],
    { cwd: ws.dir, env: { ...ws.env, ...providerEnv(server, "anthropic") } },
  );
  expect(result.code).toBe(0);
  const events = result.stdout
    .trim()
    .split("\n")
    .map(
      (line) => JSON.parse(line) as { type: string; agentPath?: string[]; title?: string; outcome?: unknown },
    );
  expect(events[0]).toMatchObject({
    type: "workflow_start",
    name: "claude-review",
    phases: ["Review", "Verify"],
  });
  expect(events.filter((e) => e.type === "workflow_phase").map((e) => e.title)).toEqual(["Review", "Verify"]);
  const children = events.filter((e) => e.type === "agent_start" && e.agentPath?.length === 3);
  expect(children.map((e) => e.agentPath?.slice(0, 2).join("/")).sort()).toEqual([
    "claude-review/review",
    "claude-review/verify",
    "claude-review/verify",
  ]);
  expect(events.at(-1)).toMatchObject({
    type: "workflow_end",
    outcome: { status: "completed", result: { confirmed: ["api-bug"] } },
  });
});

test("--dry-run prints the phases and the agent count without a model request", async () => {
  const ws = await makeWorkspace({ "review.js": await readFile(CLAUDE_REVIEW, "utf8") });
  server = await reviewServer();
  const result = await runCli(
    ["workflow", "run", "review.js", "--args", '{"areas": ["a", "b", "c"]}', "--dry-run"],
    {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
    },
  );
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("Review: 3 agents (one reviewer per area)");
  expect(result.stdout).toContain("estimated agents: at least 3");
  expect(server.requests).toHaveLength(0);
});

test("--max-agents stops the run (exit 4); --resume <run-id> alone completes it, replaying what finished; a bad --args is a usage error", async () => {
  const ws = await makeWorkspace({ "review.js": await readFile(CLAUDE_REVIEW, "utf8") });
  server = await reviewServer();
  const env = { ...ws.env, ...providerEnv(server, "anthropic") };
  const capped = await runCli(
    [
      "workflow",
      "run",
      "review.js",
      "--args",
      '{"areas": ["api", "cli"]}',
      "--permission-mode",
      "bypass",
      "--max-agents",
      "3",
    ],
    { cwd: ws.dir, env },
  );
  expect(capped.code).toBe(4);
  expect(capped.stderr).toMatch(/cap of 3 agents was reached/);
  expect(server.requests.length).toBeLessThanOrEqual(3);
  const runId = /Resume it with: agentry workflow run --resume (\S+)/.exec(capped.stderr)?.[1];
  expect(runId).toBeDefined();

  // Resumed by its id alone (the script and args come from the run's journal): the finished calls
  // are replayed without a request, the rest run.
  const before = server.requests.length;
  const resumed = await runCli(["workflow", "run", "--resume", runId!, "--permission-mode", "bypass"], {
    cwd: ws.dir,
    env,
  });
  expect(resumed.code).toBe(0);
  expect(JSON.parse(resumed.stdout)).toEqual({ confirmed: ["api-bug", "cli-bug"] });
  const [, run, replayed] = /(\d+) agents run, (\d+) replayed/.exec(resumed.stderr) ?? [];
  expect(Number(replayed)).toBeGreaterThanOrEqual(2);
  expect(Number(run) + Number(replayed)).toBe(6);
  expect(server.requests.length - before).toBe(Number(run));

  const bad = await runCli(["workflow", "run", "review.js", "--args", "{areas"], { cwd: ws.dir, env });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(/--args must be JSON/);
});

test("agentry run offers the workflow tool only when asked: --workflows, or workflows.enabled in agentry.json", async () => {
  server = await startModelServer({ text: "ok" });
  const tools = (index: number) =>
    ((server!.requests[index]?.body.tools as Array<{ name: string }> | undefined) ?? []).map(
      (tool) => tool.name,
    );
  const plain = await makeWorkspace();
  const env = (ws: typeof plain) => ({ ...ws.env, ...providerEnv(server!, "anthropic") });
  expect((await runCli(["run", "hi"], { cwd: plain.dir, env: env(plain) })).code).toBe(0);
  expect(tools(0)).not.toContain("workflow");
  expect((await runCli(["run", "--workflows", "hi"], { cwd: plain.dir, env: env(plain) })).code).toBe(0);
  expect(tools(1)).toContain("workflow");
  const configured = await makeWorkspace({
    "agentry.json": JSON.stringify({ workflows: { enabled: true } }),
  });
  // A new tool is widening: a project turns it on only in a folder the user trusts.
  const untrusted = await runCli(["run", "hi"], { cwd: configured.dir, env: env(configured) });
  expect(untrusted.code).toBe(0);
  expect(tools(2)).not.toContain("workflow");
  expect(untrusted.stderr).toContain("agentry.json (workflows.enabled)");
  await configured.trust();
  expect((await runCli(["run", "hi"], { cwd: configured.dir, env: env(configured) })).code).toBe(0);
  expect(tools(3)).toContain("workflow");
});

test("a TypeScript workflow runs from the CLI with its types stripped, and no experimental warning", async () => {
  const ws = await makeWorkspace({
    "count.ts":
      'interface Shape { n: number }\nexport const meta = { name: "typed" };\nconst answer = (await agent("Count", { schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } })) as Shape;\nreturn answer.n * 2;\n',
  });
  server = await startModelServer({ text: '{"n": 21}' });
  const result = await runCli(["workflow", "run", "count.ts", "--permission-mode", "bypass"], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(server, "anthropic") },
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout.trim()).toBe("42");
  expect(result.stderr).not.toContain("ExperimentalWarning");
});

test("agentry run --workflows: the model runs a saved workflow by name; stream-json shows its phases and agents", async () => {
  const ws = await makeWorkspace({
    ".claude/workflows/claude-review.js": await readFile(CLAUDE_REVIEW, "utf8"),
  });
  server = await startModelServer((request) => {
    if (wireSystem(request.body).includes(CHILD_MARK)) return { text: reviewAnswer(promptOf(request)) };
    const texts = wireMessages(request.body).flatMap(wireTexts).join("\n");
    if (texts.includes("</result>")) return { text: "The review confirmed api-bug." };
    return {
      toolCalls: [
        {
          name: "workflow",
          args: { name: "claude-review", args: { areas: ["api"] }, run_in_background: false },
        },
      ],
    };
  });
  const result = await runCli(
    [
      "run",
      "--workflows",
      "--permission-mode",
      "bypass",
      "-o",
      "stream-json",
      "Run the claude-review workflow on api.",
    ],
    { cwd: ws.dir, env: { ...ws.env, ...providerEnv(server, "anthropic") } },
  );
  expect(result.code, result.stderr).toBe(0);
  const events = result.stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; agentPath?: string[]; title?: string });
  expect(
    events.filter((e) => e.type === "workflow_phase").map((e) => [e.agentPath?.join("/"), e.title]),
  ).toEqual([
    ["main/claude-review", "Review"],
    ["main/claude-review", "Verify"],
  ]);
  const agents = events.filter((e) => e.type === "agent_start" && e.agentPath?.length === 4);
  expect(agents.map((e) => e.agentPath?.slice(0, 3).join("/")).sort()).toEqual([
    "main/claude-review/review",
    "main/claude-review/verify",
    "main/claude-review/verify",
  ]);
  expect(events.at(-1)).toMatchObject({ type: "result", result: "The review confirmed api-bug." });
});
