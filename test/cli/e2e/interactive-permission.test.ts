import { spawn } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import { cliBin } from "../../support/cli-bin.ts";
import { commandPath, describeWith, SCRIPT } from "../../support/components.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
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

/** Runs the CLI on a pseudo-terminal (util-linux `script`), answering each permission prompt in turn. */
function runOnTerminal(args: string[], env: Record<string, string>, cwd: string, answers: string[]) {
  const command = [process.execPath, cliBin(), ...args].map(quote).join(" ");
  const child = spawn(SCRIPT_PATH, ["-qec", command, "/dev/null"], {
    cwd,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let screen = "";
  let prompts = 0;
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    screen += chunk;
    const seen = screen.split("[y] yes, once").length - 1;
    while (prompts < seen) child.stdin.write(`${answers[prompts++] ?? "n"}\r`);
  });
  return new Promise<{ code: number | null; screen: string }>((resolve) =>
    child.once("close", (code) => resolve({ code, screen })),
  );
}

describeWith(SCRIPT, "permission prompts on a terminal", () => {
  it("asks on stderr and acts on the answers", async () => {
    ws = await makeWorkspace();
    server = await startModelServer([
      { toolCalls: [{ name: "write", args: { path: "yes.txt", content: "allowed\n" } }] },
      { toolCalls: [{ name: "write", args: { path: "no.txt", content: "refused\n" } }] },
      { text: "All done." },
    ]);
    const result = await runOnTerminal(
      ["run", "write two files"],
      { ...ws.env, ...providerEnv(server, "anthropic"), TERM: "dumb" },
      ws.dir,
      ["y", "n"],
    );
    expect(result.screen).toContain("agentry wants to edit");
    expect(result.code).toBe(0);
    expect(await ws.read("yes.txt")).toBe("allowed\n");
    await expect(ws.read("no.txt")).rejects.toThrow();
    expect(JSON.stringify(server.requests[2]?.body)).toContain("rejected");
    expect(result.screen).toContain("All done.");
  });
});
