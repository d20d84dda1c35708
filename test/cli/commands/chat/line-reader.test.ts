import { PassThrough } from "node:stream";
import { setImmediate as tick } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { streamLineReader, terminalLineReader } from "../../../../src/cli/commands/chat/line-reader.ts";

function streams() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.setEncoding("utf8").on("data", (chunk: string) => {
    shown += chunk;
  });
  return { input, output, shown: () => shown };
}

describe("piped input", () => {
  it("queues lines that arrive while a turn runs, echoes each as it is taken, and ends at EOF", async () => {
    const t = streams();
    const reader = streamLineReader({ ...t, prompt: "› " });
    t.input.write("first\r\nsecond\n\n");
    await tick();
    expect(await reader.read()).toBe("first");
    expect(t.shown()).toBe("› first\n");
    expect(await reader.read()).toBe("second");
    expect(await reader.read()).toBe("");
    // A read that waits is answered by the next line to arrive.
    const waiting = reader.read();
    t.input.end("last");
    expect(await waiting).toBe("last");
    expect(await reader.read()).toBeUndefined();
    expect(t.shown()).toBe("› first\n› second\n› last\n");
  });

  it("ends on a second Ctrl-C while waiting, and on close()", async () => {
    const t = streams();
    const reader = streamLineReader({ ...t, prompt: "› " });
    const pending = reader.read();
    reader.interrupt();
    expect(t.shown()).toContain("press Ctrl-C again to exit");
    reader.interrupt();
    expect(await pending).toBeUndefined();

    const other = streams();
    const closing = streamLineReader({ ...other, prompt: "› " });
    const waiting = closing.read();
    closing.close();
    expect(await waiting).toBeUndefined();
  });
});

describe("terminal input", () => {
  it("reads edited lines with history, and closes its readline before returning a line", async () => {
    const t = streams();
    const reader = terminalLineReader({ ...t, prompt: "› " });
    const first = reader.read();
    t.input.write("helo\u007flo\r");
    expect(await first).toBe("hello");
    // Between prompts nobody reads the input, so a permission prompt could own it.
    expect(t.input.listenerCount("keypress")).toBe(0);
    const again = reader.read();
    t.input.write("\u001b[A\r");
    expect(await again).toBe("hello");
    expect(t.shown()).toContain("› ");
  });

  it("clears a typed line on Ctrl-C, exits on Ctrl-C twice at an empty prompt, and ends on Ctrl-D", async () => {
    const t = streams();
    const reader = terminalLineReader({ ...t, prompt: "› " });
    const cleared = reader.read();
    t.input.write("half a thought\u0003");
    t.input.write("new\r");
    expect(await cleared).toBe("new");

    const leaving = reader.read();
    t.input.write("\u0003");
    await tick();
    expect(t.shown()).toContain("press Ctrl-C again to exit");
    t.input.write("\u0003");
    expect(await leaving).toBeUndefined();
    expect(await reader.read()).toBeUndefined();

    const d = streams();
    const ending = terminalLineReader({ ...d, prompt: "› " });
    const pending = ending.read();
    d.input.write("\u0004");
    expect(await pending).toBeUndefined();
  });
});
