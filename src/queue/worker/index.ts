// The worker's side of a fleet, as `agentry worker` starts it: the worker, and what the CLI gives it to
// run children with (its models, tools and sandbox).

export { FleetWorker } from "./fleet-worker.ts";
export type { WorkerRuntime } from "./worker-host.ts";
