import { PassThrough } from "node:stream";
import { setImmediate as tick } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { keyAnswer, terminalAsk } from "../../src/cli/permission-prompt.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import { PermissionDeniedError } from "../../src/permissions/types.ts";

/** A fake terminal: keys written to `input` arrive one chunk each, as raw mode delivers them. */
function terminal() {
  const modes: boolean[] = [];
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      modes.push(mode);
      input.isRaw = mode;
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
  patterns: ["npm test -- --x"],
  title: "npm test -- --x",
  agentPath: ["main"],
  always: ["npm test *"],
  alwaysRules: ["Bash(npm test:*)"],
};

describe("terminal permission prompt", () => {
  it("answers with one key: y once, a always, n or Esc no, t no with a message", () => {
    expect(keyAnswer("y")).toBe("once");
    expect(keyAnswer("Y")).toBe("once");
    expect(keyAnswer("a")).toBe("always");
    expect(keyAnswer("n")).toBe("reject");
    expect(keyAnswer("\u001b")).toBe("reject");
    expect(keyAnswer("t")).toBe("tell");
    expect(keyAnswer("\u0003")).toBe("interrupt");
    for (const other of ["\r", "x", " ", "\u001b[A"])
      expect(keyAnswer(other), JSON.stringify(other)).toBeUndefined();
  });

  it("is in raw mode before its question shows: a Ctrl-C typed at the question is a key, not a SIGINT", async () => {
    const t = terminal();
    const rawWhenWritten: boolean[] = [];
    const output = new PassThrough();
    const write = output.write.bind(output);
    output.write = ((chunk: string) => {
      rawWhenWritten.push(t.input.isRaw);
      return write(chunk);
    }) as typeof output.write;
    let interrupts = 0;
    const controller = new AbortController();
    const answer = terminalAsk({ input: t.input, output, onInterrupt: () => interrupts++ })(
      request,
      controller.signal,
    );
    await tick();
    expect(rawWhenWritten).toEqual([true]);
    t.input.write("\u0003");
    await tick();
    expect(interrupts).toBe(1);
    controller.abort();
    expect(await answer).toBe("reject");
  });

  it("reads one key in raw mode, hints on other keys, shows the rule 'always' adds", async () => {
    const t = terminal();
    const answer = terminalAsk({ input: t.input, output: t.output })(
      { ...request, agentPath: ["main", "explore-1"] },
      new AbortController().signal,
    );
    await tick();
    expect(t.modes).toEqual([true]);
    t.input.write("\r");
    await tick();
    t.input.write("x");
    await tick();
    t.input.write("a");
    expect(await answer).toBe("always");
    expect(t.shown()).toContain("main › explore-1 wants to bash: npm test -- --x");
    expect(t.shown()).toContain("[a] always: Bash(npm test:*) this session");
    expect(t.shown().match(/press y \(yes\), a \(always\) or n \(no\)/g)).toHaveLength(2);
    expect(t.shown()).toContain("always: Bash(npm test:*) this session\n");
    // The terminal is given back as it was.
    expect(t.modes).toEqual([true, false]);
    expect(t.input.isPaused()).toBe(true);
  });

  it("'t' reads a line for the model and answers no with it; an empty line is a plain no", async () => {
    const t = terminal();
    const ask = terminalAsk({ input: t.input, output: t.output });
    const told = ask(request, new AbortController().signal);
    await tick();
    t.input.write("t");
    await tick();
    expect(t.shown()).toContain("tell the model what to do instead");
    t.input.write("use npm run clean\r");
    expect(await told).toEqual({ type: "reject", message: "use npm run clean" });
    const plain = ask(request, new AbortController().signal);
    await tick();
    t.input.write("t");
    await tick();
    t.input.write("\r");
    expect(await plain).toBe("reject");
  });

  it("Ctrl-C calls onInterrupt and keeps asking", async () => {
    const t = terminal();
    let interrupts = 0;
    const answer = terminalAsk({ input: t.input, output: t.output, onInterrupt: () => interrupts++ })(
      request,
      new AbortController().signal,
    );
    await tick();
    t.input.write("\u0003");
    await tick();
    expect(interrupts).toBe(1);
    t.input.write("n");
    expect(await answer).toBe("reject");
  });

  it("gives up with reject when the ask is dismissed or the input ends", async () => {
    const t = terminal();
    const controller = new AbortController();
    const pending = terminalAsk({ input: t.input, output: t.output })(request, controller.signal);
    await tick();
    controller.abort();
    expect(await pending).toBe("reject");
    expect(t.shown()).toContain("(no longer needed)");
    const closed = terminal();
    const ended = terminalAsk({ input: closed.input, output: closed.output })(
      request,
      new AbortController().signal,
    );
    await tick();
    closed.input.end();
    expect(await ended).toBe("reject");
  });

  it("drives the real gate: 'always' is remembered as a prefix, 't' denies with the message", async () => {
    const t = terminal();
    const gate = createPermissionGate({
      rules: [],
      mode: "default",
      onAsk: terminalAsk({ input: t.input, output: t.output }),
    });
    const agent = { path: ["main"] };
    const first = gate({ permission: "bash", patterns: ["npm test"] }, agent);
    await tick();
    await tick();
    t.input.write("a");
    await first;
    await gate({ permission: "bash", patterns: ["npm test -- --watch=false"] }, agent);
    expect(t.shown().match(/wants to/g)).toHaveLength(1);
    const denied = gate({ permission: "bash", patterns: ["rm x"] }, agent);
    await tick();
    await tick();
    t.input.write("t");
    await tick();
    t.input.write("keep x\r");
    await expect(denied).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(denied).rejects.toThrow(/said: "keep x"/);
  });
});
