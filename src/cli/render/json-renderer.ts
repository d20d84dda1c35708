import type { AgentEvent } from "../../contracts/events.ts";
import type { Outcome } from "../../contracts/outcome.ts";
import type { Renderer, RenderTarget } from "./renderer.ts";
import { runResult } from "./result-object.ts";
import { TreeUsage } from "./tree-usage.ts";

/** `--output-format json`: silent while running, then exactly one JSON object on stdout. */
export function jsonRenderer(target: RenderTarget): Renderer {
  const tree = new TreeUsage();
  return {
    event(event: AgentEvent) {
      tree.add(event);
    },
    finish(outcome: Outcome) {
      target.stdout.write(`${JSON.stringify(runResult(outcome, tree))}\n`);
    },
  };
}
