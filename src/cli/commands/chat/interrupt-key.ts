/** Watches the terminal for Ctrl-C while a turn runs. */
export interface InterruptKey {
  /**
   * Gives stdin back (paused, still raw), e.g. while a permission prompt reads a key: the terminal
   * stays raw in between, so no Ctrl-C can turn into a SIGINT for the process group there.
   */
  pause(): void;
  /** Takes stdin again after `pause()`; a no-op once stopped. */
  resume(): void;
  stop(): void;
}

const CTRL_C = 0x03;

interface RawInput {
  setRawMode(mode: boolean): unknown;
}

const canGoRaw = (input: NodeJS.ReadableStream): input is NodeJS.ReadableStream & RawInput =>
  "setRawMode" in input && typeof input.setRawMode === "function";

/**
 * Reads the terminal in raw mode while a turn runs and calls `onInterrupt` on Ctrl-C. In raw mode the
 * key is not turned into a SIGINT for the whole foreground process group, so wrappers such as
 * `npx` (whose shell would die of it, or report it at exit) never see it, and keys typed during
 * the turn do not echo into the agent's output. Other keys are dropped.
 */
export function watchInterruptKey(input: NodeJS.ReadableStream, onInterrupt: () => void): InterruptKey {
  let attached = false;
  let stopped = false;
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    if (bytes.includes(CTRL_C)) onInterrupt();
  };
  const attach = () => {
    if (attached || stopped) return;
    attached = true;
    if (canGoRaw(input)) input.setRawMode(true);
    input.on("data", onData);
    input.resume();
  };
  const detach = () => {
    if (!attached) return;
    attached = false;
    input.off("data", onData);
    input.pause();
  };
  attach();
  return {
    pause: detach,
    resume: attach,
    stop() {
      if (stopped) return;
      detach();
      stopped = true;
      if (canGoRaw(input)) input.setRawMode(false);
    },
  };
}
