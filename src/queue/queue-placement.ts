import type { ChildPlacement } from "../subagents/child-placement.ts";
import type { FleetClient } from "./fleet-client.ts";
import { queueExecutor } from "./queue-executor.ts";

/** Every child of a tree runs as jobs on the fleet's queue (built here, run by a worker). */
export function queuePlacement(client: FleetClient): ChildPlacement {
  return { executor: (local) => queueExecutor(local, client) };
}
