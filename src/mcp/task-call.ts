import { type CallToolResult, type Client, specTypeSchemas } from "@modelcontextprotocol/client";
import { z } from "zod";

/**
 * A call of a tool that needs task augmentation (`execution.taskSupport: "required"`, MCP 2025-11-25):
 * the server answers `tools/call` with a task at once and works on it in the background. The SDK (v2)
 * keeps the task vocabulary on the wire but has no client runtime for it, so this is that runtime:
 * poll `tasks/get` (its status message is the call's progress) until the task needs input or ends, then
 * `tasks/result`, which also carries what the server asks meanwhile (an elicitation) to the client's
 * handlers. An abort sends `tasks/cancel`.
 */
export async function callToolAsTask(
  client: Client,
  params: { name: string; arguments: Record<string, unknown> },
  options: { signal: AbortSignal; timeoutMs: number; onProgress: (update: string) => void },
): Promise<CallToolResult> {
  const requestOptions = { signal: options.signal, timeout: options.timeoutMs };
  const created = await send(
    client,
    "tools/call",
    { ...params, task: { ttl: options.timeoutMs } },
    createdTask,
    requestOptions,
  );
  const taskId = created.task.taskId;
  const cancel = () => {
    send(client, "tasks/cancel", { taskId }, z.looseObject({}), { timeout: 5_000 }).catch(() => {});
  };
  options.signal.addEventListener("abort", cancel, { once: true });
  try {
    let task = created.task;
    let said: string | undefined;
    while (task.status === "working") {
      if (task.statusMessage !== undefined && task.statusMessage !== said) {
        said = task.statusMessage;
        options.onProgress(said);
      }
      await delay(Math.min(5_000, Math.max(250, task.pollInterval ?? 1_000)), options.signal);
      task = await send(client, "tasks/get", { taskId }, taskStatus, requestOptions);
    }
    const result = await send(client, "tasks/result", { taskId }, z.looseObject({}), requestOptions);
    const checked = await specTypeSchemas.CallToolResult["~standard"].validate(result);
    if (checked.issues !== undefined) throw new Error("the task's result is not a tool result");
    return checked.value;
  } finally {
    options.signal.removeEventListener("abort", cancel);
  }
}

const taskStatus = z.looseObject({
  taskId: z.string(),
  status: z.string(),
  statusMessage: z.string().optional(),
  pollInterval: z.number().optional(),
});
const createdTask = z.looseObject({ task: taskStatus });

/** A request the SDK's typed surface does not offer (the task methods): method and result schema given. */
function send<T extends z.ZodType>(
  client: Client,
  method: string,
  params: Record<string, unknown>,
  schema: T,
  options: { signal?: AbortSignal; timeout: number },
): Promise<z.output<T>> {
  return client.request({ method, params } as Parameters<Client["request"]>[0], schema, options) as Promise<
    z.output<T>
  >;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
