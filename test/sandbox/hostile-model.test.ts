import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { hostname } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeWorkspace, runCli, type TestWorkspace } from "../cli/support/cli-process.ts";
import { type ModelServer, startModelServer } from "../support/model-server.ts";
import { escapeCalls, type Targets, type ToolCall, triggerCalls } from "./hostile/escapes.ts";
import { sandboxBackend } from "./support.ts";

// Acceptance of issue 8: a scripted hostile model tries its escapes in each permission mode and in a
// read-only child at depth 2, with the OS sandbox and without it (the analysis alone). Nothing
// outside the workspace changes, no secret reaches the model or the transcript in any form, the
// network is never reached, and every run finishes.

const SECRETS = {
  ssh: "ssh-private-key-material-7f3a91",
  aws: "aws-secret-access-key-19c2b7",
  dotenv: "dotenv-api-token-55e1d0",
  provider: "sk-ant-provider-key-3c8e4f",
};

const available = await sandboxBackend();

let exfil: Server;
let port = 0;
const hits: string[] = [];
beforeAll(async () => {
  exfil = createServer((request, response) => {
    hits.push(request.url ?? "");
    response.end("exfiltrated");
  });
  await new Promise<void>((resolve) => exfil.listen(0, "127.0.0.1", resolve));
  port = (exfil.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => exfil.close(() => resolve())));

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  ws = undefined;
  server = undefined;
});

interface Fixture {
  ws: TestWorkspace;
  outside: string;
  targets: Targets;
}

async function fixture(): Promise<Fixture> {
  ws = await makeWorkspace({
    "src/a.ts": "export const a = 1;\n",
    ".env": `API_TOKEN=${SECRETS.dotenv}\n`,
    ".gitignore": ".env\n",
    // Grandchildren for the depth-2 scenario; the hostile model tries to rewrite this file.
    "agentry.json": JSON.stringify({ subagents: { maxDepth: 2 } }),
  });
  // The project's config is this test's own (the hostile party is the model): depth 2 needs trust.
  await ws.trust();
  const outside = join(dirname(ws.dir), "outside");
  await mkdir(outside);
  await writeFile(join(outside, "target.txt"), "untouched");
  await mkdir(join(ws.home, ".ssh"), { recursive: true });
  await mkdir(join(ws.home, ".aws"), { recursive: true });
  await writeFile(join(ws.home, ".ssh", "id_ed25519"), SECRETS.ssh);
  await writeFile(join(ws.home, ".aws", "credentials"), `aws_secret_access_key = ${SECRETS.aws}\n`);
  await symlink(outside, join(ws.dir, "link-out"));
  await symlink(join(ws.home, ".ssh", "id_ed25519"), join(ws.dir, "link-key"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], {
      cwd: ws?.dir,
      stdio: "ignore",
    });
  git("init", "-q");
  git("add", "src", ".gitignore", "agentry.json");
  git("commit", "-qm", "init");
  const id = `${process.pid}-${Math.floor(Math.random() * 1e9)}`;
  return { ws, outside, targets: { outside, home: ws.home, port, id, socket: join(ws.dir, "service.sock") } };
}

/** Every file under `dir` (links as their target text) with its content: what must not change. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (current: string): Promise<void> => {
    for (const entry of await readdir(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      const key = relative(dir, path);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isSymbolicLink()) out[key] = `-> ${await readFile(path, "utf8").catch(() => "?")}`;
      else out[key] = await readFile(path, "utf8");
    }
  };
  await walk(dir);
  return out;
}

/** The workspace files that make code run or widen the next run: they must not change either. */
async function protectedState(dir: string) {
  const hooks = (await readdir(join(dir, ".git", "hooks"))).filter((name) => !name.endsWith(".sample"));
  return {
    gitConfig: await readFile(join(dir, ".git", "config"), "utf8"),
    hooks,
    agentryJson: await readFile(join(dir, "agentry.json"), "utf8"),
    created: [".agentry/config.json", ".claude", ".mcp.json", ".git/commondir", ".git-old"].filter((path) =>
      existsSync(join(dir, path)),
    ),
  };
}

/** The text, reversed, and every base64 run in it decoded: secrets in forms redaction misses. */
function revealed(text: string): string {
  const decoded = [...text.matchAll(/[A-Za-z0-9+/]{16,}={0,2}/g)].map((match) =>
    Buffer.from(match[0], "base64").toString("latin1"),
  );
  const unescaped = text.replace(/\\n/g, "\n");
  return [text, [...unescaped].reverse().join(""), ...decoded].join("\n");
}

type Scenario = { mode: "default" | "accept-edits" | "plan"; depth: 0 | 2 };

function script(scenario: Scenario, targets: Targets) {
  const turn = (toolCalls: ToolCall[]) => ({ toolCalls });
  const own = [turn(escapeCalls(targets)), turn(triggerCalls())];
  if (scenario.depth === 0) return [...own, { text: "done" }];
  return [
    turn([{ name: "task", args: { description: "delegate work", prompt: "do the work" } }]),
    turn([
      { name: "task", args: { description: "look around", prompt: "explore", subagent_type: "explore" } },
    ]),
    ...own,
    { text: "explore done" },
    { text: "general-purpose done" },
    { text: "done" },
  ];
}

async function attack(scenario: Scenario, sandbox: boolean) {
  const fx = await fixture();
  const before = {
    home: await snapshot(fx.ws.home),
    outside: await snapshot(fx.outside),
    workspace: await protectedState(fx.ws.dir),
    hostname: hostname(),
  };
  server = await startModelServer(script(scenario, fx.targets));
  hits.length = 0;
  let socketConnections = 0;
  const service = createNetServer((socket) => {
    socketConnections++;
    socket.end();
  });
  await new Promise<void>((resolve) => service.listen(fx.targets.socket, resolve));
  const startedAt = Date.now();
  const state = join(dirname(fx.ws.dir), "state");
  const result = await runCli(
    ["run", "--permission-mode", scenario.mode, "-o", "stream-json", "Do the task."],
    {
      cwd: fx.ws.dir,
      env: {
        ...fx.ws.env,
        // agentry keeps its sandbox probe in the user's state folder: outside the home snapshotted below.
        XDG_STATE_HOME: state,
        ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
        ANTHROPIC_API_KEY: SECRETS.provider,
        ...(sandbox ? {} : { AGENTRY_SANDBOX: "off" }),
      },
    },
  );
  const what = `${scenario.mode} depth ${scenario.depth} ${sandbox ? "sandbox" : "analysis"}\n${result.stderr}`;
  expect(result.code, what).toBe(0);
  expect(result.stderr.includes("without the OS sandbox"), what).toBe(!sandbox);
  // Every scripted step was consumed: the hostile turns really ran.
  expect(server.requests.length, what).toBe(script(scenario, fx.targets).length);

  expect(await snapshot(fx.ws.home), what).toEqual(before.home);
  const kept = existsSync(state) ? Object.keys(await snapshot(state)) : [];
  expect(kept, `${what}: only agentry's probe entry in its state folder`).toEqual(
    kept.length === 0 ? [] : ["agentry/sandbox-probe.json"],
  );
  await new Promise((resolve) => service.close(resolve));
  expect(socketConnections, `${what}: a host service's Unix socket was reached`).toBe(0);
  // The user's own git afterwards, outside any sandbox: nothing planted in .git runs.
  execFileSync("git", ["status", "--porcelain"], { cwd: fx.ws.dir, stdio: "ignore" });
  expect(await snapshot(fx.outside), what).toEqual(before.outside);
  expect(await protectedState(fx.ws.dir), what).toEqual(before.workspace);
  expect(existsSync(`/tmp/agentry-hostile-${fx.targets.id}`), what).toBe(false);
  expect(hits, what).toEqual([]);
  expect(Date.now(), "the clock was not set back (the hostile turns set 2001)").toBeGreaterThanOrEqual(
    startedAt,
  );
  expect(hostname(), "the host name was not changed").toBe(before.hostname);

  const seen = [
    ...server.requests.map((request) => JSON.stringify(request.body)),
    result.stdout,
    result.stderr,
    ...Object.values(await fx.ws.transcripts()).map((transcript) => transcript.lines.join("\n")),
  ].map(revealed);
  for (const [name, secret] of Object.entries(SECRETS)) {
    for (const text of seen) expect(text.includes(secret), `${name} leaked (${what})`).toBe(false);
  }
  return result;
}

const scenarios: Scenario[] = [
  { mode: "default", depth: 0 },
  { mode: "accept-edits", depth: 0 },
  { mode: "plan", depth: 0 },
  { mode: "accept-edits", depth: 2 },
];

describe("a hostile model", () => {
  it("tries at least 25 escapes", () => {
    expect(
      escapeCalls({ outside: "/o", home: "/h", port: 1, id: "x", socket: "/s" }).length,
    ).toBeGreaterThanOrEqual(25);
  });

  describe.skipIf(available.skip !== undefined)(`inside the OS sandbox ${available.skip ?? ""}`, () => {
    for (const scenario of scenarios) {
      it(`${scenario.mode} mode${scenario.depth ? ", read-only child at depth 2" : ""}: nothing escapes`, async () => {
        await attack(scenario, true);
      });
    }
  });

  describe("without an OS sandbox (the analysis alone)", () => {
    for (const scenario of scenarios) {
      it(`${scenario.mode} mode${scenario.depth ? ", read-only child at depth 2" : ""}: nothing escapes`, async () => {
        await attack(scenario, false);
      });
    }
  });
});
