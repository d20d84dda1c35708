interface RawInput {
  setRawMode(mode: boolean): unknown;
  isRaw?: boolean;
}

export const canGoRaw = (input: NodeJS.ReadableStream): input is NodeJS.ReadableStream & RawInput =>
  "setRawMode" in input && typeof input.setRawMode === "function";

/**
 * Reads keys until `decide` returns an answer, in raw mode on a terminal (so no Enter is needed and
 * the key does not echo); without a terminal each chunk (a line) counts as a key. Ends with
 * "dismissed" when `signal` aborts or the input ends. Leaves the input as it found it: paused, in the
 * mode it was in.
 */
export function readKey<T>(
  input: NodeJS.ReadableStream,
  signal: AbortSignal,
  decide: (chunk: string) => T | undefined,
): Promise<T | "dismissed"> {
  return new Promise((resolve) => {
    const wasRaw = canGoRaw(input) ? input.isRaw === true : false;
    const finish = (answer: T | "dismissed") => {
      input.off("data", onData);
      input.off("end", onEnd);
      signal.removeEventListener("abort", onEnd);
      input.pause();
      if (canGoRaw(input)) input.setRawMode(wasRaw);
      resolve(answer);
    };
    const onData = (chunk: Buffer | string) => {
      const answer = decide(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
      if (answer !== undefined) finish(answer);
    };
    const onEnd = () => finish("dismissed");
    if (signal.aborted) {
      resolve("dismissed");
      return;
    }
    if (canGoRaw(input)) input.setRawMode(true);
    input.on("data", onData);
    input.once("end", onEnd);
    signal.addEventListener("abort", onEnd, { once: true });
    input.resume();
  });
}
