import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "./model-server.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function post(protocol: "anthropic" | "openai") {
  const url =
    protocol === "anthropic"
      ? `${server!.anthropicBaseUrl}/v1/messages`
      : `${server!.openaiBaseUrl}/chat/completions`;
  return fetch(url, { method: "POST", body: JSON.stringify({ model: "m", stream: false }) });
}

describe("the capacity fault", () => {
  it("answers at most maxInFlight requests at once and refuses the rest with 429 and retry-after", async () => {
    server = await startModelServer({ text: "ok", delayMs: 300 }, { capacity: { maxInFlight: 2 } });
    const responses = await Promise.all([1, 2, 3, 4].map(() => post("anthropic")));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 200, 429, 429]);
    const refused = responses.find((r) => r.status === 429)!;
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({ error: { type: "rate_limit_error" } });
    expect(server.capacity).toMatchObject({ peakInFlight: 2 });
    expect(server.capacity?.refusals).toHaveLength(2);
    // A refusal spends no script step: only the two answered requests reached the script.
    expect(server.requests).toHaveLength(4);
    // Once they are answered, there is room again.
    expect((await post("openai")).status).toBe(200);
  });

  it.each(["anthropic", "openai"] as const)(
    "%s: a request-rate window refuses beyond it and, with headers, says what is left",
    async (protocol) => {
      server = await startModelServer(
        { text: "ok" },
        { capacity: { rate: { requests: 2, windowMs: 10_000 }, headers: true } },
      );
      const before = Date.now();
      const [first, second, third] = [await post(protocol), await post(protocol), await post(protocol)];
      expect([first!.status, second!.status, third!.status]).toEqual([200, 200, 429]);
      // 10 s for 2 requests: one comes back in ~5 s.
      expect(Number(third!.headers.get("retry-after"))).toBeGreaterThanOrEqual(4);
      if (protocol === "anthropic") {
        expect(first!.headers.get("anthropic-ratelimit-requests-limit")).toBe("2");
        expect(first!.headers.get("anthropic-ratelimit-requests-remaining")).toBe("1");
        expect(second!.headers.get("anthropic-ratelimit-requests-remaining")).toBe("0");
        const reset = Date.parse(second!.headers.get("anthropic-ratelimit-requests-reset") ?? "");
        // Full again a whole window after the first request, which came after `before`.
        expect(reset).toBeGreaterThanOrEqual(before + 10_000 - 1);
      } else {
        expect(first!.headers.get("x-ratelimit-limit-requests")).toBe("2");
        expect(second!.headers.get("x-ratelimit-remaining-requests")).toBe("0");
        expect(second!.headers.get("x-ratelimit-reset-requests")).toMatch(/^\d+ms$/);
      }
    },
  );

  it("without headers: true, the window is only seen in refusals", async () => {
    server = await startModelServer({ text: "ok" }, { capacity: { rate: { requests: 1, windowMs: 5_000 } } });
    const first = await post("anthropic");
    expect(first.headers.get("anthropic-ratelimit-requests-remaining")).toBeNull();
    expect((await post("anthropic")).status).toBe(429);
  });
});
