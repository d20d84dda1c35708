// A fleet worker for bench/queue.ts, in its own process: its children's model answers at once, so
// what is measured is the queue; a child asked to wait for its cancel (CANCEL_PROMPT) never gets an
// answer. Prints "ready" once it takes jobs; SIGTERM ends it.
//   node bench/support/queue-worker-main.ts <redis-url> <queue> <concurrency>
import { FleetWorker } from "../../src/queue/fleet-worker.ts";
import { instantModel } from "./instant-model.ts";
import { CANCEL_PROMPT } from "./queue-cancel.ts";

const [url, queue, concurrency] = process.argv.slice(2);
const model = instantModel((request) =>
  JSON.stringify(request.messages).includes(CANCEL_PROMPT) ? new Promise(() => {}) : { text: "done" },
);
const worker = await FleetWorker.start(
  { url: url!, queue: queue!, concurrency: Number(concurrency) },
  { createModel: () => model, tools: () => [], commands: async () => undefined },
);
process.stdout.write("ready\n");
process.once("SIGTERM", () => {
  void worker.close(true).then(() => process.exit(0));
});
