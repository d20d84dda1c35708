import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { describeWith, SCRIPT } from "../../support/components.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, type TestWorkspace } from "../support/cli-process.ts";
import { bodyText, providerEnv } from "../support/provider-env.ts";
import { onTerminal } from "../support/terminal.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

const QUESTION = "[y] yes, once";

async function runOnTerminal(script: Parameters<typeof startModelServer>[0], prompt: string) {
  ws = await makeWorkspace();
  server = await startModelServer(script);
  const env = { ...ws.env, ...providerEnv(server, "anthropic"), TERM: "xterm" };
  return { term: onTerminal(["run", prompt], env, ws.dir), ws, server };
}

describeWith(SCRIPT, "the permission prompt on a terminal", () => {
  it("takes one key with no Enter, and answers other keys with a hint", async () => {
    const { term, ws } = await runOnTerminal(
      [
        { toolCalls: [{ name: "bash", args: { command: "touch yes.txt" } }] },
        { toolCalls: [{ name: "bash", args: { command: "touch no.txt" } }] },
        { text: "All done." },
      ],
      "make two files",
    );
    await term.waitFor(QUESTION);
    term.type("x");
    await term.waitFor("press y (yes), a (always) or n (no)");
    term.type("y");
    await term.waitFor(QUESTION, 2);
    term.type("n");
    expect(await term.exited, term.screen()).toBe(0);
    expect(term.screen()).toContain("All done.");
    expect(existsSync(join(ws.dir, "yes.txt"))).toBe(true);
    expect(existsSync(join(ws.dir, "no.txt"))).toBe(false);
  });

  it("'t' says no and hands the model the line typed after it", async () => {
    const { term, ws, server } = await runOnTerminal(
      [
        { toolCalls: [{ name: "bash", args: { command: "rm -rf build" } }] },
        { text: "I will use git clean." },
      ],
      "clean the build",
    );
    await ws.write("build/out.js", "x\n");
    await term.waitFor(QUESTION);
    term.type("t");
    await term.waitFor("tell the model what to do instead");
    term.type("use git clean -fdx instead\r");
    expect(await term.exited, term.screen()).toBe(0);
    expect(existsSync(join(ws.dir, "build/out.js"))).toBe(true);
    const toModel = bodyText(server, 1);
    expect(toModel).toContain("The user rejected bash 'rm -rf build'");
    expect(toModel).toContain("use git clean -fdx instead");
  });

  it("'always' shows and adds a prefix rule: the next command with that prefix is not asked", async () => {
    const { term, ws } = await runOnTerminal(
      [
        { toolCalls: [{ name: "bash", args: { command: "touch one.txt" } }] },
        { toolCalls: [{ name: "bash", args: { command: "touch -c two.txt three.txt" } }] },
        { toolCalls: [{ name: "bash", args: { command: "touch four.txt" } }] },
        { text: "Touched." },
      ],
      "touch some files",
    );
    await term.waitFor(QUESTION);
    expect(term.screen()).toContain("[a] always: Bash(touch:*) this session");
    term.type("a");
    expect(await term.exited, term.screen()).toBe(0);
    expect(term.screen().split(QUESTION)).toHaveLength(2);
    expect(existsSync(join(ws.dir, "one.txt"))).toBe(true);
    expect(existsSync(join(ws.dir, "four.txt"))).toBe(true);
  });

  it("Ctrl-C at the question aborts the run, as it does elsewhere in run", async () => {
    const { term, ws } = await runOnTerminal(
      [{ toolCalls: [{ name: "bash", args: { command: "touch never.txt" } }] }, { text: "unused" }],
      "make a file",
    );
    await term.waitFor(QUESTION);
    term.type("\u0003");
    expect(await term.exited, term.screen()).toBe(130);
    expect(existsSync(join(ws.dir, "never.txt"))).toBe(false);
  });
});
