import { APICallError, UnsupportedFunctionalityError } from "@ai-sdk/provider";
import { describe, expect, test } from "vitest";
import { describeError, isRetryableStatus } from "../../../src/model/providers/describe-error.ts";

const hints = {
  label: "Anthropic",
  model: "claude-x",
  keyHint: "ANTHROPIC_API_KEY or providers.anthropic.apiKey in agentry.json",
  baseUrlHint: "ANTHROPIC_BASE_URL",
};

function httpError(statusCode: number, body: unknown, headers: Record<string, string> = {}) {
  return new APICallError({
    message: "provider says no",
    url: "http://x/v1/messages",
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
    responseBody: JSON.stringify(body),
  });
}

describe("describeError", () => {
  test("names the status, the provider's message and type, and what to do", () => {
    const failure = describeError(
      httpError(401, { type: "error", error: { type: "authentication_error", message: "bad key" } }),
      hints,
    );
    expect(failure.message).toBe(
      "Anthropic returned HTTP 401 authentication_error: provider says no. The API key was rejected: set ANTHROPIC_API_KEY or providers.anthropic.apiKey in agentry.json.",
    );
    expect(failure.retryable).toBe(false);
  });

  test("429, 5xx and 529 are retryable; 400/401/403/404 are not", () => {
    for (const status of [408, 429, 500, 502, 503, 529]) expect(isRetryableStatus(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 413, 422]) expect(isRetryableStatus(status)).toBe(false);
    expect(describeError(httpError(529, { error: { type: "overloaded_error" } }), hints).message).toMatch(
      /overloaded/,
    );
    expect(describeError(httpError(404, {}), hints).message).toMatch(/Check the model name "claude-x"/);
  });

  test("carries the server's retry-after", () => {
    expect(describeError(httpError(429, {}, { "retry-after": "3" }), hints).retryAfterMs).toBe(3000);
    expect(describeError(httpError(429, {}, { "retry-after-ms": "40" }), hints).retryAfterMs).toBe(40);
    expect(describeError(httpError(500, {}), hints)).not.toHaveProperty("retryAfterMs");
  });

  test("429, 503, 529 and overloaded or rate-limit errors are refusals for capacity; other failures are not", () => {
    for (const status of [429, 503, 529])
      expect(describeError(httpError(status, {}), hints).throttled).toBe(true);
    for (const status of [400, 401, 500, 502])
      expect(describeError(httpError(status, {}), hints).throttled).toBe(false);
    expect(describeError(httpError(500, { error: { type: "overloaded_error" } }), hints).throttled).toBe(
      true,
    );
    expect(describeError({ message: "Overloaded", type: "overloaded_error" }, hints).throttled).toBe(true);
    expect(describeError({ message: "slow down", type: "rate_limit_error" }, hints).throttled).toBe(true);
    expect(describeError({ message: "odd", type: "api_error" }, hints).throttled).toBe(false);
  });

  test("a failed connection is retryable and points at the base URL", () => {
    const error = new APICallError({
      message: "Cannot connect to API: connect ECONNREFUSED",
      url: "http://127.0.0.1:9/v1/messages",
      requestBodyValues: {},
      isRetryable: true,
    });
    const failure = describeError(error, hints);
    expect(failure).toMatchObject({ retryable: true });
    expect(failure.message).toMatch(/Could not reach Anthropic at http:\/\/127.0.0.1:9.*ANTHROPIC_BASE_URL/);
  });

  test("a dropped connection mid-stream says the stream ended early", () => {
    const cut = new TypeError("terminated", {
      cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }),
    });
    const wrapped = new APICallError({
      message: "Failed to process successful response",
      url: "u",
      requestBodyValues: {},
      statusCode: 200,
      cause: cut,
    });
    for (const error of [cut, wrapped]) {
      const failure = describeError(error, hints);
      expect(failure.retryable).toBe(true);
      expect(failure.message).toMatch(
        /stream ended before the message was complete \(terminated: other side closed\)/,
      );
    }
  });

  test("errors sent inside the stream use their status and retry flag", () => {
    const failure = describeError(
      { message: "Overloaded", type: "overloaded_error", statusCode: 529, isRetryable: true },
      hints,
    );
    expect(failure).toMatchObject({ retryable: true });
    expect(failure.message).toMatch(/^Anthropic returned HTTP 529 overloaded_error: Overloaded/);
    expect(describeError({ message: "odd" }, hints)).toEqual({
      message: "Anthropic stream error: odd",
      retryable: false,
      throttled: false,
    });
  });

  test("anything else is an unreadable reply, not retried", () => {
    expect(describeError(new Error("Invalid JSON"), hints)).toEqual({
      message: "Anthropic sent a reply agentry could not read: Invalid JSON",
      retryable: false,
      throttled: false,
    });
  });
});

test("requests the provider cannot express are reported as such, not retried", () => {
  const failure = describeError(new UnsupportedFunctionalityError({ functionality: "image input" }), hints);
  expect(failure.retryable).toBe(false);
  expect(failure.message).toMatch(
    /^Anthropic cannot take this request \(model "claude-x"\): .*image input.*--model/,
  );
});

describe("a hint for servers that speak another API", () => {
  const openai = {
    label: "OpenAI",
    model: "gpt-x",
    baseUrlHint: "OPENAI_BASE_URL",
    apiHint: 'set "api": "chat"',
  };

  test("ends a 404's advice", () => {
    const error = new APICallError({
      message: "Not Found",
      url: "http://x/v1/responses",
      requestBodyValues: {},
      statusCode: 404,
    });
    expect(describeError(error, openai).message).toMatch(
      /Check the model name "gpt-x" and the base URL \(OPENAI_BASE_URL\), or pick another model with --model; set "api": "chat"\.$/,
    );
  });

  test("follows an unreadable reply, which is not retried and not called unreachable", () => {
    // What the SDK reports for a Chat Completions stream where the Responses API was expected.
    const mismatch = new APICallError({
      message: "Received a Chat Completions stream while using the OpenAI Responses API.",
      url: "http://x/v1/responses",
      requestBodyValues: {},
      isRetryable: false,
    });
    expect(describeError(mismatch, openai)).toEqual({
      message:
        'OpenAI sent a reply agentry could not read: Received a Chat Completions stream while using the OpenAI Responses API. If the server speaks another API: set "api": "chat".',
      retryable: false,
      throttled: false,
    });
    expect(describeError(new Error("Invalid JSON"), openai).message).toMatch(/Invalid JSON\. If the server/);
  });

  test("a long detail is cut to its first sentence, or to 300 characters", () => {
    const dump = `Type validation failed: Value: ${JSON.stringify({ choices: "x".repeat(400) })}`;
    expect(describeError(new Error(`The stream was not a Responses stream. ${dump}`), hints).message).toBe(
      "Anthropic sent a reply agentry could not read: The stream was not a Responses stream.",
    );
    const cut = describeError(new Error(dump), hints).message;
    expect(cut).toBe(`Anthropic sent a reply agentry could not read: ${dump.slice(0, 300)}…`);
  });
});
