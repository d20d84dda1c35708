import { setTimeout as sleep } from "node:timers/promises";
import type { Message, StreamResponse } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { describeRemoteFailure, RemoteAgentError } from "../remote-errors.ts";
import type { RemoteAgent } from "./remote-agent.ts";
import type { TaskEnd, TaskTracker } from "./task-tracker.ts";

/** How often a task is polled when the agent does not stream, at first and at most. */
const POLL_FIRST_MS = 100;
const POLL_MAX_MS = 1_000;

export interface ExchangeInput {
  agent: RemoteAgent;
  /** Stops the exchange: cancelled, interrupted, out of budget or stalled. */
  signal: AbortSignal;
  tracker: TaskTracker;
  /** Any sign of progress: an event, a new state. */
  onActivity(): void;
  /** The remote task's id, once the agent named it. */
  onTask(taskId: string): void;
  /** The id of a task the agent named only after the exchange was stopped: it should be cancelled. */
  onLateTask?(taskId: string): void;
  /** The W3C trace context the message is sent with (a `traceparent` header), when the run is traced. */
  traceparent?: string;
}

/**
 * Sends `message` and follows the task it starts until it completes, fails, is cancelled or asks for
 * input. With an agent that streams: SendStreamingMessage, and when that stream breaks before the
 * end, SubscribeToTask once, then GetTask polling. Otherwise: SendMessage with `returnImmediately`
 * (the task id at once), then GetTask polling. Throws `RemoteAgentError` when the agent cannot be
 * reached or the task cannot be followed any more; an abort of `signal` rejects with its reason.
 */
export async function sendAndFollow(message: Message, input: ExchangeInput): Promise<TaskEnd> {
  const client = await input.agent.client();
  const request = {
    tenant: "",
    message,
    configuration: {
      acceptedOutputModes: [],
      taskPushNotificationConfig: undefined,
      returnImmediately: !(await input.agent.streams()),
    },
    metadata: undefined,
  };
  const serviceParameters = input.traceparent === undefined ? undefined : { traceparent: input.traceparent };
  const options = { signal: input.signal, ...(serviceParameters === undefined ? {} : { serviceParameters }) };
  if (await input.agent.streams()) {
    const cut = await sendStreaming(client, request, options, input);
    if ("state" in cut) return cut;
    return recover(client, input, cut.error);
  }
  // Not aborted with the exchange: a task the agent creates after an abort must still be learnt of,
  // to be cancelled (remoteFetch bounds the wait). The exchange itself stops waiting at once.
  const sent = client.sendMessage(
    request,
    serviceParameters === undefined ? undefined : { serviceParameters },
  );
  const first = await whileNotAborted(sent, input.signal).catch((error: unknown) => {
    if (input.signal.aborted)
      sent.then(
        (late) => {
          if (!("messageId" in late) && late.id) input.onLateTask?.(late.id);
        },
        () => {},
      );
    throw error;
  });
  const end = input.tracker.apply(
    "messageId" in first ? { $case: "message", value: first } : { $case: "task", value: first },
  );
  noteTask(input);
  return end ?? poll(client, input);
}

/**
 * Follows a task started earlier (by this process before a restart, or another one): SubscribeToTask
 * when the agent streams, GetTask polling otherwise or when that fails.
 */
export async function follow(taskId: string, input: ExchangeInput): Promise<TaskEnd> {
  const client = await input.agent.client();
  input.tracker.taskId = taskId;
  if (await input.agent.streams()) {
    const cut = await drain(
      client.resubscribeTask({ tenant: "", id: taskId }, { signal: input.signal }),
      input,
    );
    if ("state" in cut) return cut;
  }
  return poll(client, input);
}

/** Asks the agent to cancel a task; false when it could not (finished already, unreachable). */
export async function cancelRemote(agent: RemoteAgent, taskId: string): Promise<boolean> {
  try {
    const client = await agent.client();
    await client.cancelTask(
      { tenant: "", id: taskId, metadata: undefined },
      { signal: AbortSignal.timeout(agent.timeoutMs) },
    );
    return true;
  } catch {
    return false;
  }
}

/**
 * SendStreamingMessage, read to the task's end. The exchange stops waiting the moment it is aborted,
 * but a stream aborted before the agent named its task would leave that task running there unknown:
 * the stream is kept open until the first event names it (`onLateTask`, to cancel it), at most the
 * agent's timeout.
 */
async function sendStreaming(
  client: Client,
  request: Parameters<Client["sendMessageStream"]>[0],
  options: { signal: AbortSignal; serviceParameters?: Record<string, string> },
  input: ExchangeInput,
): Promise<TaskEnd | { error: unknown }> {
  const stream = new AbortController();
  const stop = () => {
    if (input.tracker.taskId !== undefined || input.onLateTask === undefined) {
      stream.abort(input.signal.reason);
      return;
    }
    setTimeout(() => stream.abort(input.signal.reason), input.agent.timeoutMs).unref();
  };
  if (input.signal.aborted) stop();
  else input.signal.addEventListener("abort", stop, { once: true });
  const lateTask = (taskId: string) => {
    input.onLateTask?.(taskId);
    stream.abort(input.signal.reason);
  };
  const drained = drain(
    client.sendMessageStream(request, { ...options, signal: stream.signal }),
    input,
    lateTask,
  );
  drained.catch(() => {}).finally(() => input.signal.removeEventListener("abort", stop));
  return whileNotAborted(drained, input.signal);
}

/** Reads a stream to the task's end; `{ error }` when it broke off first (the error, or a plain close). */
async function drain(
  stream: AsyncGenerator<StreamResponse, void, undefined>,
  input: ExchangeInput,
  lateTask?: (taskId: string) => void,
): Promise<TaskEnd | { error: unknown }> {
  try {
    for await (const event of stream) {
      if (input.signal.aborted) {
        // Read on only to learn the task the agent started (`sendStreaming`).
        const taskId = input.tracker.taskId || taskIdOf(event.payload);
        if (taskId) lateTask?.(taskId);
        throw input.signal.reason;
      }
      input.onActivity();
      if (event.payload === undefined) continue;
      const end = input.tracker.apply(event.payload);
      noteTask(input);
      if (end !== undefined) return end;
    }
    return { error: new Error("the stream ended before the task did") };
  } catch (error) {
    if (input.signal.aborted) throw input.signal.reason;
    // No task yet: there is nothing to follow again, the request itself failed.
    if (input.tracker.taskId === undefined) throw error;
    return { error };
  }
}

/** A stream broke mid-task: subscribe again once, then poll; a task out of reach fails clearly. */
async function recover(client: Client, input: ExchangeInput, cut: unknown): Promise<TaskEnd> {
  const taskId = input.tracker.taskId ?? "";
  const { url } = input.agent;
  try {
    const again = await drain(
      client.resubscribeTask({ tenant: "", id: taskId }, { signal: input.signal }),
      input,
    );
    if ("state" in again) return again;
    return await poll(client, input);
  } catch (error) {
    if (input.signal.aborted) throw input.signal.reason;
    throw new RemoteAgentError(
      `the stream of task ${taskId} from the remote agent at ${url} broke off before the task ended (${describeRemoteFailure(url, cut)}), and the task could not be reached again: ${describeRemoteFailure(url, error)}`,
      "system",
      { cause: error },
    );
  }
}

/** GetTask until the task reaches a stop state; each call bounded by the agent's timeout. */
async function poll(client: Client, input: ExchangeInput): Promise<TaskEnd> {
  const id = input.tracker.taskId ?? "";
  let delay = POLL_FIRST_MS;
  while (true) {
    await sleep(delay, undefined, { signal: input.signal });
    delay = Math.min(POLL_MAX_MS, delay * 2);
    const task = await client.getTask({ tenant: "", id, historyLength: undefined }, { signal: input.signal });
    const end = input.tracker.applyTask(task);
    if (end !== undefined) return end;
  }
}

/** `promise`, or a rejection with `signal`'s reason as soon as it aborts. */
function whileNotAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The task a stream event names, without taking in the rest of it. */
function taskIdOf(payload: StreamResponse["payload"]): string | undefined {
  switch (payload?.$case) {
    case "task":
      return payload.value.id;
    case "statusUpdate":
    case "artifactUpdate":
      return payload.value.taskId;
    default:
      return undefined;
  }
}

function noteTask(input: ExchangeInput): void {
  if (input.tracker.taskId) input.onTask(input.tracker.taskId);
}
