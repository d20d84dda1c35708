import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { terminalElicit } from "../../src/cli/elicit-prompt.ts";
import type { ElicitationRequest } from "../../src/mcp/client-features.ts";

const request: ElicitationRequest = {
  server: "shop",
  message: "Where should we ship it?",
  fields: [
    { name: "city", type: "string", required: true, description: "The city" },
    { name: "express", type: "boolean", required: false, default: false },
    { name: "count", type: "integer", required: false, minimum: 1, maximum: 5 },
    {
      name: "color",
      type: "string",
      required: false,
      options: [{ value: "r", title: "Red" }, { value: "b" }],
    },
  ],
};

function terminal(lines: string) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.on("data", (chunk: Buffer) => {
    shown += chunk.toString();
  });
  input.end(lines);
  return { input, output, shown: () => shown };
}

describe("terminalElicit", () => {
  it("asks whether to answer, then each field, re-asking a wrong answer, and accepts the form", async () => {
    const t = terminal("y\nLyon\n\n9\n2\n2\n");
    const answer = await terminalElicit({ input: t.input, output: t.output })(
      request,
      new AbortController().signal,
    );
    expect(answer).toEqual({
      action: "accept",
      content: { city: "Lyon", express: false, count: 2, color: "b" },
    });
    expect(t.shown()).toContain('? MCP server "shop" asks (4 fields): Where should we ship it?');
    expect(t.shown()).toContain("city — The city:");
    expect(t.shown()).toContain("(at most 5)");
    expect(t.shown()).toContain("1) Red  2) b");
  });

  it("declines with n and cancels with c, or when the input ends", async () => {
    const declined = terminal("n\n");
    expect(await terminalElicit(declined)(request, new AbortController().signal)).toEqual({
      action: "decline",
    });
    const cancelled = terminal("c\n");
    expect(await terminalElicit(cancelled)(request, new AbortController().signal)).toEqual({
      action: "cancel",
    });
    const ended = terminal("y\n");
    expect(await terminalElicit(ended)(request, new AbortController().signal)).toEqual({ action: "cancel" });
  });

  it("is cancelled when its signal aborts while it waits for an answer", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    output.resume();
    input.write("y\n");
    const abort = new AbortController();
    const answer = terminalElicit({ input, output })(request, abort.signal);
    output.once("data", () => abort.abort());
    expect(await answer).toEqual({ action: "cancel" });
  });
});
