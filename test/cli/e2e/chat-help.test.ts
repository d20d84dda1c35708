import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});

const cli = (...args: string[]) => runCli(args, { cwd: ws.dir, env: ws.env });

describe("help for the interactive mode", () => {
  it("documents chat's options, its slash commands, keys and exit codes", async () => {
    const result = await cli("chat", "--help");
    expect(result.code).toBe(0);
    for (const text of [
      "--model",
      "--cwd",
      "--resume",
      "--permission-mode",
      "--agents",
      "--max-turns",
      "/new",
      "/session",
      "/model [id]",
      "/compact [focus]",
      "/agents",
      "/tasks",
      "/mcp",
      "--mcp-config",
      "/exit, /quit",
      "Ctrl-C",
      "Ctrl-D",
      "piped input",
      "Exit code",
      "Examples:",
    ]) {
      expect(result.stdout).toContain(text);
    }
  });

  it("mentions the bare command in the top-level help, which piped agentry still prints", async () => {
    const top = await cli("--help");
    expect(top.stdout).toContain("chat [options]");
    expect(top.stdout).toContain("agentry with no command, on a terminal");
    const bare = await cli();
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("agentry chat");
  });
});

describe("agentry with options and no command", () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer([{ text: "Hi from chat." }]);
  });
  afterAll(() => server.close());

  it("is agentry chat with those options", async () => {
    const result = await runCli(["--max-turns", "2", "-C", "."], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
      input: "hello\n",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("Hi from chat.\n");
    expect(result.stderr).toContain("› hello");
  });

  it("reports an unknown option as a usage error", async () => {
    const result = await cli("--frobnicate");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--frobnicate'");
  });
});
