// A fleet worker for bench/queue.ts, in its own process: its children's model answers at once, so
// what is measured is the queue. Prints "ready" once it takes jobs; SIGTERM ends it.
//   node bench/support/queue-worker-main.ts <redis-url> <queue> <concurrency>
import { FleetWorker } from "../../src/queue/fleet-worker.ts";
import { instantModel } from "./instant-model.ts";

const [url, queue, concurrency] = process.argv.slice(2);
const model = instantModel(() => ({ text: "done" }));
const worker = await FleetWorker.start(
  { url: url!, queue: queue!, concurrency: Number(concurrency) },
  { createModel: () => model, tools: () => [], commands: async () => undefined },
);
process.stdout.write("ready\n");
process.once("SIGTERM", () => {
  void worker.close(true).then(() => process.exit(0));
});
