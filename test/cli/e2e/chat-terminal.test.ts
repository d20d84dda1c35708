import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, expect, it } from "vitest";
import { describeWith, SCRIPT } from "../../support/components.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";
import { onTerminal } from "../support/terminal.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

describeWith(SCRIPT, "agentry alone on a terminal", () => {
  it("starts the interactive mode, asks permission mid-turn and exits 0 on Ctrl-D", async () => {
    ws = await makeWorkspace();
    server = await startModelServer([
      { toolCalls: [{ name: "bash", args: { command: "touch made.txt" } }] },
      { text: "Made it." },
    ]);
    const term = onTerminal([], { ...ws.env, ...providerEnv(server, "anthropic"), TERM: "xterm" }, ws.dir);
    await term.waitFor("/help for commands");
    await term.waitFor("› ");
    term.type("make a file\r");
    await term.waitFor("[y] yes, once");
    term.type("y\r");
    await term.waitFor("2 turns");
    await term.waitFor("› ", 2);
    term.type("\u0004");
    expect(await term.exited, term.screen()).toBe(0);
    expect(term.screen()).toContain("agentry wants to bash: touch made.txt");
    expect(term.screen()).toContain("Made it.");
    expect(existsSync(join(ws.dir, "made.txt"))).toBe(true);
  });

  it("aborts a turn on Ctrl-C, returns to the prompt, and exits on Ctrl-C twice", async () => {
    ws = await makeWorkspace();
    server = await startModelServer([
      { toolCalls: [{ name: "bash", args: { command: "sh -c 'echo $$ > sleeper.pid; exec sleep 100'" } }] },
      { text: "unused" },
    ]);
    const env = {
      ...ws.env,
      ...providerEnv(server, "anthropic"),
      TERM: "xterm",
      AGENTRY_PERMISSION_MODE: "bypass",
    };
    const term = onTerminal([], env, ws.dir);
    await term.waitFor("› ");
    term.type("sleep please\r");
    const pidFile = join(ws.dir, "sleeper.pid");
    while (!(existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "")) await sleep(20);
    term.type("\u0003");
    await term.waitFor("aborted · 1 turn");
    await term.waitFor("› ", 2);
    term.type("\u0003");
    await term.waitFor("press Ctrl-C again to exit");
    term.type("\u0003");
    expect(await term.exited, term.screen()).toBe(0);
    expect(server.requests).toHaveLength(1);
  });

  it("dismisses a permission prompt with its turn on Ctrl-C, so the next line is a prompt again", async () => {
    ws = await makeWorkspace();
    server = await startModelServer([
      { toolCalls: [{ name: "bash", args: { command: "touch never.txt" } }] },
      { text: "Next turn works." },
    ]);
    const term = onTerminal([], { ...ws.env, ...providerEnv(server, "anthropic"), TERM: "xterm" }, ws.dir);
    await term.waitFor("› ");
    term.type("touch it\r");
    await term.waitFor("[y] yes, once");
    term.type("\u0003");
    await term.waitFor("aborted · 1 turn");
    await term.waitFor("› ", 2);
    term.type("y\r");
    await term.waitFor("Next turn works.");
    await term.waitFor("› ", 3);
    term.type("\u0004");
    expect(await term.exited, term.screen()).toBe(0);
    expect(term.screen().split("[y] yes, once")).toHaveLength(2);
    expect(existsSync(join(ws.dir, "never.txt"))).toBe(false);
    expect(JSON.stringify(server.requests[1]?.body)).toContain('"y"');
  });
});
