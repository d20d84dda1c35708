import { type AgentEvent, EVENT_SCHEMA_VERSION } from "../../contracts/events.ts";
import type { Outcome } from "../../contracts/outcome.ts";
import type { Renderer, RenderTarget } from "./renderer.ts";
import { runResult } from "./result-object.ts";
import { TreeUsage } from "./tree-usage.ts";

/**
 * `--output-format stream-json`: one JSON line per `AgentEvent` as it happens (each with the schema
 * version `v`), then the result line. Schema: docs/stream-json.md.
 */
export function streamJsonRenderer(target: RenderTarget): Renderer {
  const tree = new TreeUsage();
  return {
    event(event: AgentEvent) {
      tree.add(event);
      target.stdout.write(`${JSON.stringify({ v: EVENT_SCHEMA_VERSION, ...event })}\n`);
    },
    finish(outcome: Outcome) {
      target.stdout.write(`${JSON.stringify(runResult(outcome, tree))}\n`);
    },
  };
}
