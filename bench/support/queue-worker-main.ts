// A fleet worker for bench/queue.ts and bench/worker-kill.ts, in its own process. Its children's model
// answers at once (`instant`, the default), never until its child is stopped (`hang`: a worker to
// kill mid-child; and a child asked to wait for its cancel, CANCEL_PROMPT, in any mode), or after
// `sleep:<ms>` (children that hold their locks through several renewals).
// Prints "ready" once it takes jobs; SIGTERM ends it.
//   node bench/support/queue-worker-main.ts <redis-url> <queue> <concurrency> [instant|hang|sleep:<ms>]
import { setTimeout as sleep } from "node:timers/promises";
import { FleetWorker } from "../../src/queue/worker/fleet-worker.ts";
import { instantModel } from "./instant-model.ts";
import { CANCEL_PROMPT } from "./queue-cancel.ts";

const [url, queue, concurrency, mode = "instant"] = process.argv.slice(2);
const sleepMs = Number(/^sleep:(\d+)$/.exec(mode)?.[1] ?? 0);
const model = instantModel((request) => {
  if (mode === "hang" || JSON.stringify(request.messages).includes(CANCEL_PROMPT))
    return new Promise(() => {});
  if (sleepMs > 0) return sleep(sleepMs).then(() => ({ text: "done" }));
  return { text: "done" };
});
const worker = await FleetWorker.start(
  { url: url!, queue: queue!, concurrency: Number(concurrency) },
  { createModel: () => model, tools: () => [], commands: async () => undefined },
);
process.stdout.write("ready\n");
process.once("SIGTERM", () => {
  void worker.close(true).then(() => process.exit(0));
});
