/** Lets the loop stop waiting the moment a run is aborted, even for work that ignores the signal. */
export interface AbortWatch {
  /** Resolves to `value`'s result, or to "aborted" as soon as the signal fires. */
  race<T>(value: Promise<T>): Promise<T | "aborted">;
  dispose(): void;
}

export function watchAbort(signal: AbortSignal): AbortWatch {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<"aborted">((resolve) => {
    if (signal.aborted) return resolve("aborted");
    onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return {
    race: (value) => Promise.race([value, aborted]),
    dispose: () => {
      if (onAbort) signal.removeEventListener("abort", onAbort);
    },
  };
}

/** A readable reason for an aborted signal. */
export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (typeof reason === "string" && reason) return reason;
  if (reason instanceof Error && reason.name !== "AbortError") return reason.message;
  return "aborted";
}
