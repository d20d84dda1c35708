import type { ServerScript } from "./server-script.ts";

/** A model server that answers every request at once with the same text (for `agentry serve`'s tasks). */
export function createScript(input: unknown): ServerScript {
  const text = typeof input === "object" && input !== null && "text" in input ? String(input.text) : "done";
  return { step: () => ({ text }), summary: (requests) => ({ calls: requests.length }) };
}
