import { z } from "zod";
import type { ServerReply } from "../../test/support/server-reply.ts";
import { toolResultCount } from "./anthropic-wire.ts";
import type { ServerScript } from "./server-script.ts";

const argsSchema = z.strictObject({
  /** Tool results already in the resumed session. */
  prefilled: z.number().int().min(0),
  /** Turns per run: a `note` call on each but the last, which answers. */
  turns: z.number().int().min(1),
});

export type OverheadScriptArgs = z.infer<typeof argsSchema>;

/** The zero-latency model of the overhead benchmark, at the wire: calls `note` until the run's last turn. */
export function createScript(input: unknown): ServerScript {
  const { prefilled, turns } = argsSchema.parse(input);
  const reply = (request: { body: Record<string, unknown> }): ServerReply => {
    const done = toolResultCount(request.body) - prefilled;
    return done < turns - 1
      ? { toolCalls: [{ name: "note", args: { text: `turn ${done + 1}` } }] }
      : { text: "Done." };
  };
  return { step: reply, summary: (requests) => ({ calls: requests.length }) };
}
