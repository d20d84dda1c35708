import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { deferredModel } from "../../src/model/deferred-model.ts";
import { userText } from "../../src/model/messages.ts";
import type { ModelEvent, ModelRequest } from "../../src/model/model.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";

const request: ModelRequest = { system: "", messages: [userText("hi")], tools: [] };

async function events(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const all: ModelEvent[] = [];
  for await (const event of stream) all.push(event);
  return all;
}

describe("deferredModel", () => {
  it("starts loading at once, and every call streams through the loaded model", async () => {
    let loads = 0;
    const model = deferredModel("test:m", async () => {
      loads++;
      return scriptedModel([{ text: "one" }, { text: "two" }]);
    });
    expect(loads).toBe(1);
    const first = await events(model.stream(request));
    expect(
      first
        .filter((event) => event.type === "text_delta")
        .map((event) => event.delta)
        .join(""),
    ).toBe("one");
    expect((await model.stream(request).result()).content).toEqual([{ type: "text", text: "two" }]);
    expect(loads).toBe(1);
  });

  it("ends each call with a non-retryable error naming the model when its adapter cannot load", async () => {
    const model = deferredModel("anthropic:x", () =>
      Promise.reject(new Error("Cannot find package '@ai-sdk/anthropic'")),
    );
    const message = await model.stream(request).result();
    expect(message).toMatchObject({ stopReason: "error", retryable: false, model: "anthropic:x" });
    expect(message.errorMessage).toContain("the adapter for anthropic:x could not be loaded");
    expect(message.errorMessage).toContain("Cannot find package '@ai-sdk/anthropic'");
  });

  it("ends a call aborted while the adapter loads without calling it", async () => {
    let release: (() => void) | undefined;
    const inner = scriptedModel([{ text: "never" }]);
    const model = deferredModel("test:m", () => new Promise((resolve) => (release = () => resolve(inner))));
    const controller = new AbortController();
    const stream = model.stream(request, controller.signal);
    controller.abort();
    release?.();
    expect((await stream.result()).stopReason).toBe("aborted");
    expect(inner.requests).toHaveLength(0);
  });
});

describe("createModel", () => {
  it("loads only the provider package of the model it makes", () => {
    const registry = new URL("../../src/model/registry.ts", import.meta.url).href;
    const script = `
      import { registerHooks } from "node:module";
      const loaded = [];
      registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
      const { createModel } = await import(${JSON.stringify(registry)});
      const model = createModel("anthropic:claude-sonnet-4-5", { anthropic: { apiKey: "k" } }, {});
      await model.stream({ system: "", messages: [], tools: [] }, AbortSignal.abort()).result();
      const packages = [...new Set(loaded.flatMap((url) => url.match(/@ai-sdk\\/[a-z-]+/) ?? []))].sort();
      process.stdout.write(JSON.stringify(packages));
    `;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    const packages = JSON.parse(output) as string[];
    expect(packages).toContain("@ai-sdk/anthropic");
    expect(packages).not.toContain("@ai-sdk/openai");
    expect(packages).not.toContain("@ai-sdk/openai-compatible");
  });
});
