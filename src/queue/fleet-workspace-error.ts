import { AgentryError } from "../errors/agentry-error.ts";

/** A child's workspace that cannot travel to, or be found on, a worker: the set-up must change. */
export class FleetWorkspaceError extends AgentryError {
  override readonly name = "FleetWorkspaceError";
  readonly kind = "user";
}
