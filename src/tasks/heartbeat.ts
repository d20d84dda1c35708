import type { TaskStore } from "./task-store.ts";

/**
 * Keeps the owner's tasks alive in the store: every `intervalMs`, `store.heartbeat(getTaskIds())`.
 * Beats never overlap, and the timer does not keep the process alive. Failures go to `onError`
 * (default: a process warning) and the next beat tries again. The returned `stop` resolves once a
 * beat in flight has finished.
 */
export function startHeartbeat(
  store: TaskStore,
  getTaskIds: () => readonly string[],
  intervalMs: number,
  onError: (error: unknown) => void = (error) =>
    process.emitWarning(`task heartbeat failed: ${String(error)}`),
): () => Promise<void> {
  if (!(Number.isFinite(intervalMs) && intervalMs > 0)) {
    throw new RangeError(`startHeartbeat: intervalMs must be a positive number, got ${intervalMs}.`);
  }
  let inFlight: Promise<void> | undefined;
  const beat = () => {
    if (inFlight) return;
    const ids = getTaskIds();
    if (ids.length === 0) return;
    inFlight = store
      .heartbeat(ids)
      .then(() => undefined, onError)
      .finally(() => {
        inFlight = undefined;
      });
  };
  const timer = setInterval(beat, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await inFlight;
  };
}
