import { afterEach, describe, expect, it } from "vitest";
import type { Outcome } from "../../src/contracts/outcome.ts";
import { remoteExecutor } from "../support/a2a-client.ts";
import { type FaultProxy, startFaultProxy } from "../support/a2a-fault-proxy.ts";
import { startA2aServer, type TestA2aServer } from "../support/a2a-server.ts";
import { waitFor } from "../support/processes.ts";
import { scaled } from "../support/time-scale.ts";

/**
 * A remote agent that fails in every way the network allows: each is the child's clear error (naming
 * the agent's URL), within the configured timeout, never a rejection.
 */
const closing: Array<TestA2aServer | FaultProxy> = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((server) => server.close()));
});

async function outcomeOf(url: string, options: Parameters<typeof remoteExecutor>[1] = {}): Promise<Outcome> {
  const activation = remoteExecutor(url, options).start({
    prompt: "a task",
    messages: [],
    signal: new AbortController().signal,
    emit: () => {},
  });
  return (await activation.done).outcome;
}

function errorOf(outcome: Outcome): string {
  expect(outcome.status).toBe("error");
  return outcome.status === "error" ? outcome.error : "";
}

describe("A2A client faults", () => {
  it("a server that is down: connection refused, naming the URL", async () => {
    const server = await startA2aServer([{ reply: "never" }]);
    await server.close();
    const error = errorOf(await outcomeOf(server.url));
    expect(error).toContain(`cannot reach the remote agent at ${server.url}`);
    expect(error).toContain("connection refused");
  });

  it("401: the credentials were refused, and says where they come from", async () => {
    const server = await startA2aServer([{ reply: "never" }], { token: "right" });
    closing.push(server);
    const error = errorOf(await outcomeOf(server.url, { headers: { Authorization: "Bearer wrong" } }));
    expect(error).toContain(`the remote agent at ${server.url} refused the request (HTTP 401`);
    expect(error).toContain("headers");
    expect(error).not.toContain("wrong");
  });

  it("500: the status and the start of the page", async () => {
    const server = await startA2aServer([{ reply: "never" }]);
    const proxy = await startFaultProxy(server.url, "http-500");
    closing.push(server, proxy);
    const error = errorOf(await outcomeOf(proxy.url));
    expect(error).toContain(`the remote agent at ${proxy.url} answered HTTP 500`);
    expect(error).toContain("Internal Server Error");
  });

  it("a payload that is not A2A is an error, not a crash", async () => {
    const server = await startA2aServer([{ reply: "never" }], { streaming: false });
    const proxy = await startFaultProxy(server.url, "garbage");
    closing.push(server, proxy);
    const error = errorOf(await outcomeOf(proxy.url));
    expect(error).toContain(`the remote agent at ${proxy.url}`);
  });

  it("a server that never answers: the request timeout ends it", async () => {
    const server = await startA2aServer([{ reply: "never" }]);
    const proxy = await startFaultProxy(server.url, "silent");
    closing.push(server, proxy);
    // Without the timeout it would hang.
    const error = errorOf(await outcomeOf(proxy.url, { timeoutMs: 500 }));
    expect(error).toContain(`the remote agent at ${proxy.url} did not answer within`);
  });

  it("a stream cut mid-task is taken up again when the agent is still there", async () => {
    // Still working when the stream is taken up again, however slow the machine.
    const server = await startA2aServer([{ reply: "finished anyway", delayMs: scaled(300) }]);
    const proxy = await startFaultProxy(server.url, "cut-once");
    closing.push(server, proxy);
    const outcome = await outcomeOf(proxy.url);
    expect(outcome).toMatchObject({ status: "completed", text: "finished anyway" });
    expect(proxy.methods).toContain("SubscribeToTask");
  });

  it("a stream cut mid-task by an agent that went away is a clear error", async () => {
    const server = await startA2aServer([{ reply: "never seen", delayMs: 5_000 }]);
    const proxy = await startFaultProxy(server.url, "cut-then-down");
    closing.push(server, proxy);
    const error = errorOf(await outcomeOf(proxy.url));
    expect(error).toContain(`the stream of task ${server.messages[0]?.taskId}`);
    expect(error).toContain("could not be reached again");
  });

  it("a task the agent names only after the child was cancelled is cancelled too", async () => {
    const server = await startA2aServer([{ hang: true }], { streaming: false });
    const proxy = await startFaultProxy(server.url, "held-answers");
    closing.push(server, proxy);
    const controller = new AbortController();
    const activation = remoteExecutor(proxy.url).start({
      prompt: "a long task",
      messages: [],
      signal: controller.signal,
      emit: () => {},
    });
    await waitFor(() => server.messages.length > 0, 5_000, "the call to reach the agent");
    controller.abort("cancelled by its parent (task_cancel)");
    // Its answer is held: only the abort can end the child.
    const { outcome } = await activation.done;
    expect(outcome).toMatchObject({ status: "aborted" });
    // Its answer (with the task's id) arrives after the abort: the task is cancelled then.
    proxy.release();
    await waitFor(() => server.cancelled.length > 0, 3_000, "the task named late to be cancelled");
    expect(server.cancelled).toEqual([server.messages[0]?.taskId]);
  });

  it("an agent that streams nothing for stallTimeoutMs is stalled, and asked to cancel", async () => {
    const server = await startA2aServer([{ hang: true }]);
    closing.push(server);
    const outcome = await outcomeOf(server.url, { stallMs: 400 });
    expect(outcome).toMatchObject({ status: "error", reason: "stalled" });
    expect(errorOf(outcome)).toContain("no sign of progress");
    expect(server.cancelled).toEqual([server.messages[0]?.taskId]);
  });
});
