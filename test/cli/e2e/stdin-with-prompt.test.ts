import { execFileSync, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { cliBin } from "../../support/cli-bin.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { finished, makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

interface AnthropicBody {
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
}

/** The text of the first user message of request `index`, as the provider received it. */
function firstUserText(model: ModelServer, index = 0): string {
  const body = model.requests[index]?.body as AnthropicBody | undefined;
  const first = body?.messages.find((message) => message.role === "user");
  if (first === undefined) return "";
  return typeof first.content === "string"
    ? first.content
    : first.content.map((part) => part.text ?? "").join("");
}

async function setup() {
  ws = await makeWorkspace({ "src/app.ts": "export const answer = 41;\n" });
  server = await startModelServer([{ text: "Looks fine." }]);
  const env = { ...ws.env, ...providerEnv(server, "anthropic") };
  return { ws, server, env };
}

describe("a prompt with piped stdin, as claude -p takes it", () => {
  it("git diff | agentry run -p 'review' puts the diff in the first user message", async () => {
    const { ws, server, env } = await setup();
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: ws.dir, env: { ...env, GIT_CONFIG_NOSYSTEM: "1" }, encoding: "utf8" });
    git("init", "-q");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "init", "--allow-empty");
    git("add", "src/app.ts");
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "app");
    await ws.write("src/app.ts", "export const answer = 42;\n");
    const diff = git("diff");
    expect(diff).toContain("+export const answer = 42;");

    const result = await runCli(["run", "-p", "review"], { cwd: ws.dir, env, input: diff });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Looks fine.");
    const sent = firstUserText(server);
    expect(sent.startsWith("review\n\n<stdin>\n")).toBe(true);
    expect(sent).toContain(diff.trimEnd());
    expect(sent.endsWith("</stdin>")).toBe(true);
  });

  it("agentry -p is agentry run; with no prompt, stdin is the prompt", async () => {
    const { server, ws, env } = await setup();
    const result = await runCli(["-p"], { cwd: ws.dir, env, input: "What is 2 + 2?\n" });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Looks fine.");
    expect(firstUserText(server)).toBe("What is 2 + 2?\n");
  });

  it("an empty stdin leaves the prompt alone", async () => {
    const { server, ws, env } = await setup();
    const result = await runCli(["-p", "just this"], { cwd: ws.dir, env, input: "" });
    expect(result.code, result.stderr).toBe(0);
    expect(firstUserText(server)).toBe("just this");
  });

  it("refuses stdin past the cap with a clear message, before any model call", async () => {
    const { server, ws, env } = await setup();
    const big = "x".repeat(1024 * 1024 + 1);
    const result = await runCli(["run", "summarize"], { cwd: ws.dir, env, input: big });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("stdin has more than 1.0 MB, the most agentry run takes with a prompt");
    expect(result.stderr).toContain("Write it to a file");
    expect(server.requests).toHaveLength(0);
  });

  it("does not hang on a stdin that stays open and silent: it says so and runs with the prompt", async () => {
    const { server, ws, env } = await setup();
    const child = spawn(process.execPath, [cliBin(), "run", "hello"], {
      cwd: ws.dir,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const result = await finished(child);
    child.stdin.end();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("stdin sent nothing within 3 s");
    expect(firstUserText(server)).toBe("hello");
  });
});
