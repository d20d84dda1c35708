import type { Outcome } from "../../agent/outcome.ts";
import type { Renderer, RenderTarget } from "./renderer.ts";
import { runResult } from "./result-object.ts";

/** `--output-format json`: silent while running, then exactly one JSON object on stdout. */
export function jsonRenderer(target: RenderTarget): Renderer {
  return {
    event() {},
    finish(outcome: Outcome) {
      target.stdout.write(`${JSON.stringify(runResult(outcome))}\n`);
    },
  };
}
