import { PassThrough } from "node:stream";
import { setImmediate as tick } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { TerminalTurn } from "../../../../src/cli/commands/chat/terminal-turn.ts";

function terminal() {
  const modes: boolean[] = [];
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    setRawMode(mode: boolean) {
      modes.push(mode);
    },
  });
  const output = new PassThrough();
  let shown = "";
  output.setEncoding("utf8").on("data", (chunk: string) => {
    shown += chunk;
  });
  return { input, output, modes, shown: () => shown };
}

const request = {
  permission: "bash",
  patterns: ["rm -rf build"],
  title: "rm -rf build",
  agentPath: ["main"],
  always: ["rm -rf build"],
  alwaysRules: ["Bash(rm -rf build)"],
};

describe("the terminal side of an interactive turn", () => {
  it("asks with the key watcher paused, and gives the keys back after the answer", async () => {
    const t = terminal();
    const turn = new TerminalTurn(t.input, t.output);
    const controller = new AbortController();
    turn.begin(controller.signal, () => controller.abort());
    expect(t.modes).toEqual([true]);
    const answer = turn.ask(request, new AbortController().signal);
    await tick();
    expect(t.shown()).toContain("agentry wants to bash: rm -rf build");
    t.input.write("a\r");
    expect(await answer).toBe("always");
    expect(t.modes.at(-1)).toBe(true);
    turn.end();
    expect(t.modes.at(-1)).toBe(false);
  });

  it("dismisses a pending question when its turn is aborted, and interrupts the turn on Ctrl-C", async () => {
    const t = terminal();
    const turn = new TerminalTurn(t.input, t.output);
    const controller = new AbortController();
    let interrupts = 0;
    turn.begin(controller.signal, () => interrupts++);
    const answer = turn.ask(request, new AbortController().signal);
    await tick();
    t.input.write("\u0003");
    await tick();
    expect(interrupts).toBe(1);
    controller.abort();
    expect(await answer).toBe("reject");
    expect(t.shown()).toContain("(no longer needed)");
    turn.end();
    // Between turns nothing is asked.
    expect(await turn.ask(request, new AbortController().signal)).toBe("reject");
  });
});
