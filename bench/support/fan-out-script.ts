import { z } from "zod";
import type { RecordedRequest } from "../../test/support/model-server.ts";
import type { ServerReply } from "../../test/support/server-reply.ts";
import { isChildRequest, toolResultCount } from "./anthropic-wire.ts";
import type { ServerScript } from "./server-script.ts";

const argsSchema = z.strictObject({
  children: z.number().int().min(1),
  calls: z.number().int().min(0),
  latencyMs: z.number().min(0),
});

export type FanOutScriptArgs = z.infer<typeof argsSchema>;

/**
 * The root starts `children` explore children in one message, then answers; each child reads one
 * file per turn until it has made `calls` calls, then reports. Every reply waits `latencyMs`.
 */
export function createScript(input: unknown): ServerScript {
  const { children, calls, latencyMs } = argsSchema.parse(input);
  const reply = (request: RecordedRequest): ServerReply => {
    const done = toolResultCount(request.body);
    if (isChildRequest(request)) {
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
  return {
    step: reply,
    summary: (requests) => ({ childCalls: requests.filter(isChildRequest).length, calls: requests.length }),
  };
}
