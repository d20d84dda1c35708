import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
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

describeWith(SCRIPT, "!cmd in chat on a terminal", () => {
  it("runs the command through the permission prompt and puts it and its output in the conversation", async () => {
    ws = await makeWorkspace();
    server = await startModelServer([{ text: "I see you made a file." }]);
    const term = onTerminal(
      ["chat"],
      { ...ws.env, ...providerEnv(server, "anthropic"), TERM: "xterm" },
      ws.dir,
    );
    await term.waitFor("› ");
    // Read-only: the rules allow it, no question.
    term.type("!echo shell-says-hi\r");
    await term.waitFor("shell-says-hi");
    await term.waitFor("› ", 2);
    // Not read-only: asked as the agent's own command would be.
    term.type("!touch made.txt\r");
    await term.waitFor("[y] yes, once");
    expect(term.screen()).toContain("agentry wants to bash: touch made.txt");
    term.type("y");
    await term.waitFor("› ", 3);
    term.type("!touch refused.txt\r");
    await term.waitFor("[y] yes, once", 2);
    term.type("n");
    await term.waitFor("not run:");
    await term.waitFor("› ", 4);
    term.type("what did I do?\r");
    await term.waitFor("I see you made a file.");
    await term.waitFor("› ", 5);
    term.type("\u0004");
    expect(await term.exited, term.screen()).toBe(0);

    expect(existsSync(join(ws.dir, "made.txt"))).toBe(true);
    expect(existsSync(join(ws.dir, "refused.txt"))).toBe(false);
    // Three turns were typed but only one called the model, which read the commands that ran.
    expect(server.requests).toHaveLength(1);
    const sent = bodyText(server, 0);
    expect(sent).toContain(
      "<bash-input>echo shell-says-hi</bash-input>\\n<bash-output>shell-says-hi</bash-output>",
    );
    expect(sent).toContain("<bash-input>touch made.txt</bash-input>");
    expect(sent).not.toContain("refused.txt");
    expect(sent).toContain("what did I do?");
  });
});

describe("!cmd in chat with piped input", () => {
  it("resolves the permission by --permission-mode, as the agent's commands are", async () => {
    ws = await makeWorkspace();
    server = await startModelServer([{ text: "ok" }]);
    const result = await runCli(["chat"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
      input: "!touch denied.txt\n!pwd\nnext\n",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("agentry: not run: bash 'touch denied.txt' needs approval");
    expect(existsSync(join(ws.dir, "denied.txt"))).toBe(false);
    expect(result.stdout).toContain(ws.dir);
    expect(bodyText(server, 0)).toContain("<bash-input>pwd</bash-input>");
  });
});
