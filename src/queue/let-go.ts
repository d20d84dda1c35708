import type { Redis } from "ioredis";

/** How long closing may wait on a Redis that does not answer before it cuts the connections. */
export const CLOSE_GRACE_MS = 1_000;

/**
 * Waits for `closing` (BullMQ's own close) at most `graceMs`, then ends the connections: politely
 * (QUIT) where Redis answers, at once where it does not — so closing never hangs on a lost server.
 */
export async function letGo(
  closing: Promise<unknown>,
  clients: readonly Redis[],
  graceMs = CLOSE_GRACE_MS,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([closing.catch(() => {}), grace]);
  clearTimeout(timer);
  await Promise.all(
    clients.map(async (client) => {
      if (client.status !== "ready") return client.disconnect();
      await Promise.race([client.quit(), new Promise((resolve) => setTimeout(resolve, graceMs))]).catch(
        () => {},
      );
      client.disconnect();
    }),
  );
}
