import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

/** Both protocols point at one server; which one a run used (and the model it named) shows the winner. */
async function setup(files: Record<string, string> = {}) {
  ws = await makeWorkspace(files);
  server = await startModelServer({ text: "ok" });
  const env = {
    ...ws.env,
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    ANTHROPIC_API_KEY: "a-key",
    OPENAI_BASE_URL: server.openaiBaseUrl,
    OPENAI_API_KEY: "o-key",
  };
  return { ws, server, env };
}

async function userConfig(home: string, config: unknown) {
  await mkdir(join(home, ".config", "agentry"), { recursive: true });
  await writeFile(join(home, ".config", "agentry", "config.json"), JSON.stringify(config));
}

function usedModel(server: ModelServer): string {
  const request = server.requests.at(-1);
  return `${request?.protocol}:${String(request?.body.model)}`;
}

describe("model precedence: flag > env > project > user > default", () => {
  it("walks down the precedence chain", async () => {
    const { ws, server, env } = await setup({
      "agentry.json": JSON.stringify({ model: "openai:from-project" }),
    });
    await userConfig(ws.home, { model: "openai:from-user" });
    const run = (extraEnv: Record<string, string>, ...args: string[]) =>
      runCli(["run", ...args, "hi"], { cwd: ws.dir, env: { ...env, ...extraEnv } });

    await run({ AGENTRY_MODEL: "anthropic:from-env" }, "--model", "openai:from-flag");
    expect(usedModel(server)).toBe("openai:from-flag");
    await run({ AGENTRY_MODEL: "anthropic:from-env" });
    expect(usedModel(server)).toBe("anthropic:from-env");
    await run({});
    expect(usedModel(server)).toBe("openai:from-project");
    await writeFile(join(ws.dir, "agentry.json"), "{}");
    await run({});
    expect(usedModel(server)).toBe("openai:from-user");
  });

  it("honours XDG_CONFIG_HOME for the user file", async () => {
    const { ws, server, env } = await setup();
    const xdg = join(ws.home, "xdg");
    await mkdir(join(xdg, "agentry"), { recursive: true });
    await writeFile(join(xdg, "agentry", "config.json"), JSON.stringify({ model: "openai:from-xdg" }));
    const result = await runCli(["run", "hi"], { cwd: ws.dir, env: { ...env, XDG_CONFIG_HOME: xdg } });
    expect(result.code).toBe(0);
    expect(usedModel(server)).toBe("openai:from-xdg");
  });

  it("applies maxTurns from config and --max-turns over it", async () => {
    const { ws, env } = await setup({ "agentry.json": JSON.stringify({ maxTurns: 1 }) });
    await server?.close();
    server = await startModelServer({ toolCalls: [{ name: "list", args: {} }] });
    const envNow = { ...env, ANTHROPIC_BASE_URL: server.anthropicBaseUrl };
    const limited = await runCli(["run", "--output-format", "json", "loop"], { cwd: ws.dir, env: envNow });
    expect(limited.code).toBe(3);
    expect(JSON.parse(limited.stdout)).toMatchObject({ outcome: "max_turns", turns: 1 });
    const two = await runCli(["run", "--max-turns", "2", "-o", "json", "loop"], { cwd: ws.dir, env: envNow });
    expect(two.code).toBe(3);
    expect(JSON.parse(two.stdout)).toMatchObject({ outcome: "max_turns", turns: 2 });
  });
});

describe("config errors exit with 2 before anything runs", () => {
  it("names the file, the key and the bad value", async () => {
    const { ws, server, env } = await setup({ "agentry.json": JSON.stringify({ maxTurns: "ten" }) });
    const result = await runCli(["run", "hi"], { cwd: ws.dir, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('agentry.json: "maxTurns" must be a positive integer (got "ten")');
    expect(server.requests).toHaveLength(0);
    expect(await ws.transcripts()).toEqual({});
  });

  it("suggests the right name for an unknown key", async () => {
    const { ws, env } = await setup({ ".agentry/config.json": JSON.stringify({ permisionMode: "plan" }) });
    const result = await runCli(["run", "hi"], { cwd: ws.dir, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown key "permisionMode" (did you mean "permissionMode"?)');
  });

  it("reports a bad user config by its path", async () => {
    const { ws, env } = await setup();
    await userConfig(ws.home, { providers: { openai: { baseUrl: "not a url" } } });
    const result = await runCli(["run", "hi"], { cwd: ws.dir, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${join(ws.home, ".config", "agentry", "config.json")}: "providers.openai.baseUrl" must be an http(s) URL`,
    );
  });

  it("says which env var or flag to set when no provider is configured", async () => {
    ws = await makeWorkspace();
    const result = await runCli(["run", "hi"], { cwd: ws.dir, env: ws.env });
    expect(result.code).toBe(2);
    for (const text of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "--model"])
      expect(result.stderr).toContain(text);
    expect(await ws.transcripts()).toEqual({});
  });

  it("names the missing key for an explicitly chosen provider", async () => {
    ws = await makeWorkspace();
    const result = await runCli(["run", "--model", "openai:gpt-5.5", "hi"], { cwd: ws.dir, env: ws.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("OPENAI_API_KEY");
  });

  it("rejects a --cwd that does not exist", async () => {
    ws = await makeWorkspace();
    const result = await runCli(["run", "--cwd", "nope", "hi"], { cwd: ws.dir, env: ws.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--cwd");
    expect(result.stderr).toContain("does not exist");
  });
});
