import { z } from "zod";
import type { RecordedRequest } from "../../test/support/model-server.ts";
import type { ServerReply } from "../../test/support/server-reply.ts";
import { isChildRequest, toolResultCount } from "./anthropic-wire.ts";
import type { ServerScript } from "./server-script.ts";

const argsSchema = z.strictObject({
  children: z.number().int().min(1),
  calls: z.number().int().min(0),
  latencyMs: z.number().min(0),
  /** A provider at its limits: requests beyond this many in flight get 429 with `retry-after`. */
  maxInFlight: z.number().int().min(1).optional(),
  retryAfterSeconds: z.number().int().min(0).optional(),
});

export type FanOutScriptArgs = z.input<typeof argsSchema>;

/** What a fan-out's server saw: calls answered, and refusals (ms after the first request). */
export interface FanOutSummary {
  childCalls: number;
  calls: number;
  refusedAtMs: number[];
  peakInFlight: number;
}

/**
 * The root starts `children` explore children in one message, then answers; each child reads one
 * file per turn until it has made `calls` calls, then reports. Every reply waits `latencyMs`. With
 * `maxInFlight`, the server refuses requests beyond it (429, `retry-after`), spending no reply on them.
 */
export function createScript(input: unknown): ServerScript {
  const { children, calls, latencyMs, maxInFlight, retryAfterSeconds } = argsSchema.parse(input);
  let answeredChildCalls = 0;
  const reply = (request: RecordedRequest): ServerReply => {
    const done = toolResultCount(request.body);
    if (isChildRequest(request)) {
      answeredChildCalls++;
      if (done < calls)
        return { toolCalls: [{ name: "read", args: { path: `src/part-${done}.ts` } }], delayMs: latencyMs };
      return { text: `Read ${calls} files; each exports one constant.`, delayMs: latencyMs };
    }
    if (done === 0) {
      return {
        toolCalls: Array.from({ length: children }, (_, i) => ({
          name: "task",
          args: {
            description: `Explore part ${i}`,
            prompt: "Read src/part-*.ts and report.",
            subagent_type: "explore",
          },
        })),
        delayMs: latencyMs,
      };
    }
    return { text: `All ${children} parts explored.`, delayMs: latencyMs };
  };
  const capacity =
    maxInFlight === undefined
      ? undefined
      : { maxInFlight, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) };
  return {
    step: reply,
    ...(capacity === undefined ? {} : { options: { capacity } }),
    summary: (requests, server): FanOutSummary => {
      const first = requests[0]?.startedAt ?? 0;
      return {
        // Answered calls only: a refused request spends no reply.
        childCalls: answeredChildCalls,
        calls: requests.length,
        refusedAtMs: (server.capacity?.refusals ?? []).map((at) => Math.round(at - first)),
        peakInFlight: server.capacity?.peakInFlight ?? 0,
      };
    },
  };
}
