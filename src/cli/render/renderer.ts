import type { AgentEvent } from "../../contracts/events.ts";
import type { Outcome } from "../../contracts/outcome.ts";

/** Where a renderer writes. `isTTY` decides colour and line-rewriting. */
export interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface RenderTarget {
  stdout: OutputStream;
  stderr: OutputStream;
  /** NO_COLOR and friends; colour is also off when stderr is not a terminal. */
  color?: boolean;
}

/** Turns a run's events and outcome into output. One renderer per `--output-format`. */
export interface Renderer {
  event(event: AgentEvent): void;
  /** Called once, after the last event. */
  finish(outcome: Outcome): void;
  /** Something else (a permission prompt) is about to write to the terminal: end any open line. */
  interrupt?(): void;
}

export const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];
