import type { NodeRow } from "../../../src/ui/node-rows.ts";
import type { FeedUpdate } from "../../../src/ui/task-feed.ts";

/** The rows a page would hold, kept from `/events` as the page keeps them. */
export interface Followed {
  rows: Map<string, NodeRow>;
  order: string[];
  /** Resolves once `check` holds of the rows (the bound only catches a hang). */
  until(check: (rows: Map<string, NodeRow>) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Opens `/events` with the token and applies every event to `rows`. */
export async function follow(base: string, token: string): Promise<Followed> {
  const abort = new AbortController();
  const response = await fetch(`${base}/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: abort.signal,
  });
  if (response.status !== 200 || response.body === null)
    throw new Error(`/events answered ${response.status}`);
  const rows = new Map<string, NodeRow>();
  let order: string[] = [];
  const waiters = new Set<() => void>();
  const apply = (event: string, data: string) => {
    if (event === "snapshot") {
      const snapshot = JSON.parse(data) as { rows: NodeRow[]; order: string[] };
      rows.clear();
      for (const row of snapshot.rows) rows.set(row.key, row);
      order = snapshot.order;
    } else if (event === "update") {
      const update = JSON.parse(data) as FeedUpdate;
      for (const key of update.removed) rows.delete(key);
      for (const row of update.changed) rows.set(row.key, row);
      if (update.order) order = update.order;
    }
    for (const wake of [...waiters]) wake();
  };
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf("\n\n");
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) apply(event, data);
          end = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // closed
    }
  })();
  return {
    rows,
    get order() {
      return order;
    },
    until(check, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        if (check(rows)) return resolve();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`the page's rows never got there: ${JSON.stringify([...rows.values()])}`));
        }, timeoutMs);
        const wake = () => {
          if (!check(rows)) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
      });
    },
    close: () => abort.abort(),
  };
}
