import { PassThrough } from "node:stream";
import { setImmediate as tick } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { watchInterruptKey } from "../../../../src/cli/commands/chat/interrupt-key.ts";

/** A stream with the terminal's raw-mode switch, recording each change. */
function terminal() {
  const modes: boolean[] = [];
  const input = Object.assign(new PassThrough(), {
    setRawMode(mode: boolean) {
      modes.push(mode);
    },
  });
  return { input, modes };
}

describe("Ctrl-C as a key while a turn runs", () => {
  it("reads the terminal raw, reports Ctrl-C and ignores other keys", async () => {
    const { input, modes } = terminal();
    let interrupts = 0;
    const keys = watchInterruptKey(input, () => interrupts++);
    expect(modes).toEqual([true]);
    input.write("typed ahead");
    await tick();
    expect(interrupts).toBe(0);
    input.write("\u0003");
    await tick();
    expect(interrupts).toBe(1);
    keys.stop();
    keys.stop();
    expect(modes).toEqual([true, false]);
    expect(input.listenerCount("data")).toBe(0);
  });

  it("hands stdin back while paused (a permission prompt) still raw, and not after stop", async () => {
    const { input, modes } = terminal();
    let interrupts = 0;
    const keys = watchInterruptKey(input, () => interrupts++);
    keys.pause();
    // Never back to normal mode in between: a Ctrl-C there would be a SIGINT for the process group.
    expect(modes).toEqual([true]);
    expect(input.isPaused()).toBe(true);
    expect(input.listenerCount("data")).toBe(0);
    keys.resume();
    expect(modes).toEqual([true, true]);
    keys.stop();
    keys.resume();
    expect(modes).toEqual([true, true, false]);
    input.write("\u0003");
    await tick();
    expect(interrupts).toBe(0);
  });
});
