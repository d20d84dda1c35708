import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { bodyText } from "../support/provider-env.ts";

const KEY = "sk-ant-test-9f8e7d6c5b4a3210";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
});

describe("secrets", () => {
  it("commands do not inherit the API key: a bash command that prints it prints nothing", async () => {
    ws = await makeWorkspace();
    server = await startModelServer([
      {
        toolCalls: [
          { name: "bash", args: { command: "echo key=$ANTHROPIC_API_KEY; env | grep -c API_KEY" } },
        ],
      },
      { text: "printed it" },
    ]);
    const result = await runCli(
      ["run", "--permission-mode", "bypass", "-o", "stream-json", "print the key"],
      {
        cwd: ws.dir,
        env: { ...ws.env, ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: KEY },
      },
    );
    expect(result.code).toBe(0);
    expect(bodyText(server, 1)).toContain(String.raw`key=\n0`);
    await expectNowhere(ws, server, result, KEY);
  });

  it("a key the user's config lets commands inherit reaches the model, the output and the transcript only as a placeholder", async () => {
    ws = await makeWorkspace();
    await writeUserConfig(ws, { sandbox: { env: ["ANTHROPIC_API_KEY"] } });
    server = await startModelServer([
      { toolCalls: [{ name: "bash", args: { command: "echo key=$ANTHROPIC_API_KEY" } }] },
      { text: "printed it" },
    ]);
    const result = await runCli(
      ["run", "--permission-mode", "bypass", "-o", "stream-json", "print the key"],
      {
        cwd: ws.dir,
        env: { ...ws.env, ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: KEY },
      },
    );
    expect(result.code).toBe(0);
    expect(bodyText(server, 1)).toContain("key=[REDACTED:ANTHROPIC_API_KEY]");
    await expectNowhere(ws, server, result, KEY);
  });

  it("a subagent's tool output is redacted the same way", async () => {
    ws = await makeWorkspace();
    await writeUserConfig(ws, { sandbox: { env: ["ANTHROPIC_API_KEY"] } });
    server = await startModelServer([
      { toolCalls: [{ name: "task", args: { description: "print key", prompt: "echo the key" } }] },
      { toolCalls: [{ name: "bash", args: { command: "echo child-key=$ANTHROPIC_API_KEY" } }] },
      { text: "the child printed it" },
      { text: "done" },
    ]);
    const result = await runCli(["run", "--permission-mode", "bypass", "-o", "stream-json", "delegate"], {
      cwd: ws.dir,
      env: { ...ws.env, ANTHROPIC_BASE_URL: server.anthropicBaseUrl, ANTHROPIC_API_KEY: KEY },
    });
    expect(result.code).toBe(0);
    expect(bodyText(server, 2)).toContain("child-key=[REDACTED:ANTHROPIC_API_KEY]");
    expect(result.stdout).toContain('"agentPath":["main","general-purpose-1"]');
    expect(result.stdout + result.stderr).not.toContain(KEY);
    const transcripts = await ws.transcripts();
    const names = Object.keys(transcripts);
    expect(names).toHaveLength(2);
    const child = names.find((name) => name.startsWith("sub-"));
    expect(child).toBeDefined();
    expect(await readFile(join(ws.dir, ".agentry", "sessions", child!), "utf8")).toContain(
      "child-key=[REDACTED:ANTHROPIC_API_KEY]",
    );
    for (const name of names) {
      expect(await readFile(join(ws.dir, ".agentry", "sessions", name), "utf8")).not.toContain(KEY);
    }
  });
});

/** Writes the temp HOME's user config (`~/.config/agentry/config.json`). */
async function writeUserConfig(workspace: TestWorkspace, config: unknown): Promise<void> {
  const dir = join(workspace.env.HOME as string, ".config", "agentry");
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "config.json"), JSON.stringify(config));
}

/** The secret appears in no request the model got, nor the CLI's output, nor any transcript. */
async function expectNowhere(
  workspace: TestWorkspace,
  model: ModelServer,
  result: { stdout: string; stderr: string },
  secret: string,
): Promise<void> {
  expect(JSON.stringify(model.requests.map((request) => request.body))).not.toContain(secret);
  expect(result.stdout + result.stderr).not.toContain(secret);
  const transcripts = Object.keys(await workspace.transcripts());
  expect(transcripts.length).toBeGreaterThan(0);
  for (const name of transcripts) {
    expect(await readFile(join(workspace.dir, ".agentry", "sessions", name), "utf8")).not.toContain(secret);
  }
}
