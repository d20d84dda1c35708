import type { Model } from "../../../model/model.ts";

/** A model whose target can change between turns (`/model`). */
export interface SwitchableModel extends Model {
  readonly current: Model;
  switchTo(model: Model): void;
}

/**
 * The root agent's model in the interactive mode. The root config and its subagent runtime (children
 * inherit the parent's model) both hold this one object, so `/model` reaches every later call without
 * rebuilding the runtime; a call already streaming keeps the model it started with.
 */
export function switchableModel(initial: Model): SwitchableModel {
  let current = initial;
  return {
    get id() {
      return current.id;
    },
    get current() {
      return current;
    },
    stream: (request, signal) => current.stream(request, signal),
    switchTo(model) {
      current = model;
    },
  };
}
