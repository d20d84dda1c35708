import { spawn } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import { cliBin } from "../../support/cli-bin.ts";
import { commandPath, describeWith, SCRIPT } from "../../support/components.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { serverEverythingConfig } from "../../support/server-everything.ts";
import { makeWorkspace, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

/** util-linux `script`, which gives agentry a pseudo-terminal. */
const SCRIPT_PATH = commandPath(SCRIPT) ?? "script";
const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

/** Runs the CLI on a pseudo-terminal, typing the next answer whenever a question waits (it ends in ": " or "> "). */
function runOnTerminal(args: string[], env: Record<string, string>, cwd: string, answers: string[]) {
  const command = [process.execPath, cliBin(), ...args].map(quote).join(" ");
  const child = spawn(SCRIPT_PATH, ["-qec", command, "/dev/null"], {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  let answeredAt = 0;
  let next = 0;
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    screen += chunk;
    const since = screen.slice(answeredAt);
    if (screen.includes("[y] answer") && /(: |> )$/.test(since)) {
      answeredAt = screen.length;
      child.stdin.write(`${answers[next++] ?? ""}\r`);
    }
  });
  return new Promise<{ code: number | null; screen: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, screen })),
  );
}

describeWith(SCRIPT, "an MCP server's form on a terminal", () => {
  it("is asked field by field, and the server gets the answers", async () => {
    ws = await makeWorkspace({
      "agentry.json": JSON.stringify({ mcpServers: { everything: serverEverythingConfig() } }),
    });
    // A project's MCP servers start only in a folder the user trusted.
    await ws.trust();
    server = await startModelServer([
      { toolCalls: [{ name: "mcp__everything__trigger-elicitation-request", args: {} }] },
      { text: "Thanks." },
    ]);
    const result = await runOnTerminal(
      ["run", "--permission-mode", "bypass", "ask me"],
      { ...ws.env, ...providerEnv(server, "anthropic"), TERM: "dumb" },
      ws.dir,
      ["y", "Ada Lovelace", "maybe", "y"],
    );
    expect(result.code, result.screen).toBe(0);
    expect(result.screen).toContain('MCP server "everything" asks');
    expect(result.screen).toContain("(answer y or n)");
    const told = JSON.stringify(server.requests[1]?.body);
    expect(told).toContain("Ada Lovelace");
    expect(told).toContain("accept");
  });
});
