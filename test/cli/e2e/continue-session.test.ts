import { afterEach, describe, expect, it } from "vitest";
import { Session } from "../../../src/agent/session/session.ts";
import { userText } from "../../../src/model/messages.ts";
import { describeWith, SCRIPT } from "../../support/components.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { bodyText, providerEnv } from "../support/provider-env.ts";
import { onTerminal } from "../support/terminal.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

async function setup(script: Parameters<typeof startModelServer>[0]) {
  ws = await makeWorkspace();
  server = await startModelServer(script);
  const env = { ...ws.env, ...providerEnv(server, "anthropic") };
  const dir = ws.dir;
  const cli = (args: string[], input?: string) =>
    runCli(args, { cwd: dir, env, ...(input === undefined ? {} : { input }) });
  return { cli, server, ws, env };
}

/** A subagent's session, newer than every session the user started. */
async function newerChildSession(workspace: string, parentSessionId: string): Promise<string> {
  const child = await Session.create({ workspace, agentName: "explore", model: "x:y", parentSessionId });
  await child.append(userText("a child's task, not the user's"));
  child.close();
  return child.id;
}

describe("-c, --continue", () => {
  it("run -c continues the latest of the user's sessions, never a subagent's", async () => {
    const { cli, server, ws } = await setup([
      { text: "The word is marmalade." },
      { text: "Another session." },
      { text: "It was marmalade." },
    ]);
    const first = JSON.parse((await cli(["run", "-o", "json", "Remember: marmalade"])).stdout);
    const second = JSON.parse((await cli(["run", "-o", "json", "Something else"])).stdout);
    expect(second.sessionId).not.toBe(first.sessionId);
    await newerChildSession(ws.dir, first.sessionId);

    const continued = await cli(["run", "-c", "-o", "json", "What came before?"]);
    expect(continued.code, continued.stderr).toBe(0);
    expect(JSON.parse(continued.stdout).sessionId).toBe(second.sessionId);
    expect(bodyText(server, 2)).toContain("Something else");
    expect(bodyText(server, 2)).not.toContain("a child's task");
  });

  it("run -c with no session says so (exit 2); chat -c starts a new one", async () => {
    const { cli, server } = await setup([{ text: "Fresh." }]);
    const run = await cli(["run", "-c", "hello"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--continue: there is no session to continue");
    const chat = await cli(["-c"], "hello\n");
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stderr).toContain("No earlier session in this workspace: starting a new one.");
    expect(server.requests).toHaveLength(1);
  });

  it("refuses --continue with --resume", async () => {
    const { cli } = await setup([]);
    const result = await cli(["run", "-c", "--resume", "20250101-000000-abcdef", "x"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot be used with/);
  });
});

describe("chat --resume without an id", () => {
  it("asks for an id when stdin is not a terminal", async () => {
    const { cli, server } = await setup([{ text: "unused" }]);
    await cli(["run", "first"]);
    const result = await cli(["chat", "--resume"], "hi\n");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--resume needs a session id here");
    expect(result.stderr).toContain("--continue");
    expect(server.requests).toHaveLength(1);
  });
});

describeWith(SCRIPT, "the session picker on a terminal", () => {
  it("lists the user's sessions and resumes the one whose number is pressed", async () => {
    const { cli, ws, env } = await setup([
      { text: "One." },
      { text: "Two." },
      { text: "Back in the first." },
    ]);
    const first = JSON.parse((await cli(["run", "-o", "json", "the first session"])).stdout);
    await cli(["run", "the second session"]);
    await newerChildSession(ws.dir, first.sessionId);

    const term = onTerminal(["--resume"], { ...env, TERM: "xterm" }, ws.dir);
    await term.waitFor("Resume which session?");
    await term.waitFor("Esc for none");
    expect(term.screen()).not.toContain("a child's task");
    expect(term.screen()).toMatch(/1 {2}\S+ .*the second session/);
    expect(term.screen()).toMatch(/2 {2}\S+ .*the first session/);
    term.type("2");
    await term.waitFor(`session ${first.sessionId} (resumed, 2 messages)`);
    await term.waitFor("› ");
    term.type("\u0004");
    expect(await term.exited, term.screen()).toBe(0);
  });
});
