// The parent's side of a fleet, as the CLI wires it: the connections a tree's queued children share,
// and the placement that puts every loop child on the queue.

export { FleetClient } from "./fleet-client.ts";
export { queuePlacement } from "./queue-placement.ts";
