import { afterEach, describe, expect, test } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { scaled } from "../../support/time-scale.ts";
import { collect, deltas, modelFor, PROTOCOLS } from "./http-models.ts";

// Every model call has an idle watchdog: an attempt that sends nothing for `idleTimeoutMs` — a server
// that never answers, or a stream that stops mid-way — is cut off (its socket closed) and fails as
// retryable, instead of hanging until the HTTP client's own timeout, minutes later.

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const request = {
  system: "",
  messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }],
  tools: [],
};
/** The watchdog's timeout is scaled: a server slow to answer on a loaded machine is not a stalled one. */
const retry = (idleTimeoutMs: number, maxRetries = 2) => ({
  maxRetries,
  baseDelayMs: 1,
  maxDelayMs: 5,
  idleTimeoutMs: scaled(idleTimeoutMs),
});

describe.each(PROTOCOLS)("%s", (protocol) => {
  test("a server that never answers is cut off after the idle timeout and retried", async () => {
    // The first request never ends by itself: without the watchdog the call would hang.
    server = await startModelServer([{ hang: true }, { text: "second try" }]);
    const { events, message } = await collect(modelFor(protocol, server, retry(300)).stream(request));
    expect(message).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "second try" }] });
    const retries = events.filter((event) => event.type === "retry");
    expect(retries).toEqual([
      expect.objectContaining({ attempt: 1, error: expect.stringMatching(/stalled/) }),
    ]);
    expect(server.requests).toHaveLength(2);
    // The stalled request's connection was closed, not left hanging.
    expect(server.requests[0]?.finishedAt).toBeDefined();
  });

  test("a stream that keeps stalling fails with a message that says so, after the retries", async () => {
    server = await startModelServer({ hang: true });
    const { message } = await collect(modelFor(protocol, server, retry(200, 1)).stream(request));
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(
      /sent nothing for [\d.]+s: the stream stalled.*\(gave up after 1 retry\)$/,
    );
    expect(server.requests).toHaveLength(2);
  });

  test("a stream that stalls after part of the reply is cut off and not retried, and says why", async () => {
    // Every protocol has sent some text by its sixth event (after its lifecycle events).
    server = await startModelServer([{ text: "one two three four five six", hangAfterEvents: 6 }]);
    const { events, message } = await collect(modelFor(protocol, server, retry(300)).stream(request));
    expect(deltas(events, "text_delta").join("")).not.toBe("");
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(
      /^the reply broke off after part of it had arrived, so it was not retried.*stalled/,
    );
    expect(server.requests).toHaveLength(1);
  });

  test("a slow but steady stream is not cut off", async () => {
    // Lifecycle events carry no text, but they are proof of life too.
    server = await startModelServer({ text: "one two three four five six", chunkDelayMs: 150 });
    const { message } = await collect(modelFor(protocol, server, retry(600)).stream(request));
    expect(message).toMatchObject({ stopReason: "stop", content: [{ text: "one two three four five six" }] });
  });
});
