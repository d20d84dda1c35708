/**
 * One person at the terminal: the questions put to them (permission prompts, MCP servers' forms) are
 * asked one at a time, in the order they came. A question whose signal aborts while it waits its turn
 * is answered `whenAborted` at once and never shown.
 */
export function personChannel(): <T>(
  signal: AbortSignal,
  whenAborted: T,
  ask: () => Promise<T>,
) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (signal, whenAborted, ask) => {
    const turn = tail.then(() => (signal.aborted ? whenAborted : ask()));
    tail = turn.catch(() => {});
    if (signal.aborted) return Promise.resolve(whenAborted);
    return new Promise((resolve, reject) => {
      const onAbort = () => resolve(whenAborted);
      signal.addEventListener("abort", onAbort, { once: true });
      turn.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  };
}
