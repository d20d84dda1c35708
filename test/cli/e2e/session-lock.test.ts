import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { wireMessages, wireTexts } from "../../subagents/support/subagent-harness.ts";
import { cliBin } from "../../support/cli-bin.ts";
import { BUBBLEWRAP, describeWith } from "../../support/components.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { waitFor } from "../../support/processes.ts";
import { finished, makeWorkspace, runCli, spawnCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

// One process at a time continues a session: a second `--resume` while the first runs is refused
// with exit 2 and a message naming the holder, instead of interleaving one transcript. The lock goes
// with the run; one left by a killed process does not block the next resume.

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
const started: ChildProcess[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await server?.close();
  await ws?.cleanup();
  server = undefined;
  ws = undefined;
});

const lastText = (request: RecordedRequest) => wireMessages(request.body).flatMap(wireTexts).at(-1) ?? "";

/**
 * A workspace with one finished session; "slow" prompts are answered once the test calls `answerSlow`,
 * so a run stays in its turn for as long as the test needs, however slowly the machine starts processes.
 */
async function oneSession() {
  ws = await makeWorkspace();
  let answerSlow = () => {};
  const slowAnswered = new Promise<void>((resolve) => {
    answerSlow = resolve;
  });
  server = await startModelServer(async (request) => {
    const last = lastText(request);
    if (last !== "slow") return { text: `answer to ${last}` };
    await slowAnswered;
    return { text: "slow answer" };
  });
  const env = { ...ws.env, ...providerEnv(server, "anthropic") };
  const first = await runCli(["run", "--output-format", "json", "first"], { cwd: ws.dir, env });
  const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
  const lockPath = join(ws.dir, ".agentry", "locks", `${sessionId}.lock`);
  const transcript = () => readFileSync(join(ws!.dir, ".agentry", "sessions", `${sessionId}.jsonl`), "utf8");
  return { env, sessionId, lockPath, transcript, dir: ws.dir, server, answerSlow };
}

describe("a session is continued by one process at a time", () => {
  it("a second run --resume while the first runs is refused (exit 2), and works once it ended", async () => {
    const { env, sessionId, lockPath, transcript, dir, server, answerSlow } = await oneSession();
    expect(existsSync(lockPath)).toBe(false);
    const slow = spawnCli(["run", "--resume", sessionId, "slow"], { cwd: dir, env });
    started.push(slow);
    const slowExit = finished(slow);
    await waitFor(() => server.requests.length === 2, 10_000);

    const second = await runCli(["run", "--resume", sessionId, "meanwhile"], { cwd: dir, env });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`Session "${sessionId}" is in use by another agentry process`);
    expect(second.stderr).toContain(`:${slow.pid}`);
    expect(server.requests).toHaveLength(2);
    expect(transcript()).not.toContain("meanwhile");

    answerSlow();
    expect((await slowExit).code).toBe(0);
    expect(existsSync(lockPath)).toBe(false);
    const after = await runCli(["run", "--resume", sessionId, "afterwards"], { cwd: dir, env });
    expect(after.code).toBe(0);
    expect(after.stdout).toContain("answer to afterwards");
  });

  it("an open chat holds its session; a run --resume meanwhile is refused", async () => {
    const { env, sessionId, lockPath, dir } = await oneSession();
    const chat = spawn(process.execPath, [cliBin(), "chat", "--resume", sessionId], {
      cwd: dir,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    started.push(chat);
    const chatExit = finished(chat);
    await waitFor(() => existsSync(lockPath), 10_000);

    const meanwhile = await runCli(["run", "--resume", sessionId, "meanwhile"], { cwd: dir, env });
    expect(meanwhile.code).toBe(2);
    expect(meanwhile.stderr).toContain("is in use by another agentry process");

    chat.stdin?.end("hello\n");
    expect((await chatExit).code).toBe(0);
    const after = await runCli(["run", "--resume", sessionId, "afterwards"], { cwd: dir, env });
    expect(after.code).toBe(0);
  });

  it("the lock of a process killed with -9 does not block the next resume", async () => {
    const { env, sessionId, lockPath, dir, server, answerSlow } = await oneSession();
    const slow = spawnCli(["run", "--resume", sessionId, "slow"], { cwd: dir, env });
    started.push(slow);
    const slowExit = finished(slow);
    await waitFor(() => server.requests.length === 2 && existsSync(lockPath), 10_000);
    slow.kill("SIGKILL");
    await slowExit;
    answerSlow();
    expect(existsSync(lockPath)).toBe(true);

    const next = await runCli(["run", "--resume", sessionId, "next"], { cwd: dir, env });
    expect(next.stderr).not.toContain("in use");
    expect(next.code).toBe(0);
    expect(next.stdout).toContain("answer to next");
  });

  describeWith(BUBBLEWRAP, "with another pid namespace", () => {
    it("a holder in another pid namespace cannot be checked: its fresh lock is respected", async () => {
      const { env, sessionId, lockPath, dir } = await oneSession();
      const argv = [
        "--dev-bind",
        "/",
        "/",
        "--unshare-pid",
        "--die-with-parent",
        "--proc",
        "/proc",
        process.execPath,
        cliBin(),
      ];
      const chat = spawn("bwrap", [...argv, "chat", "--resume", sessionId], {
        cwd: dir,
        env,
        stdio: ["pipe", "pipe", "pipe"],
      });
      started.push(chat);
      const chatExit = finished(chat);
      await waitFor(() => existsSync(lockPath), 10_000);

      const meanwhile = await runCli(["run", "--resume", sessionId, "meanwhile"], { cwd: dir, env });
      expect(meanwhile.code).toBe(2);
      expect(meanwhile.stderr).toContain("is in use by another agentry process");
      expect(meanwhile.stderr).toContain(lockPath);

      chat.stdin?.end();
      expect((await chatExit).code).toBe(0);
    });
  });
});
