import { afterEach, describe, expect, it } from "vitest";
import type { Message, Usage } from "../../src/model/messages.ts";
import { createModel } from "../../src/model/registry.ts";
import { AnthropicPromptCache, estimateTokens, fixedTokens, toolTokens } from "./anthropic-prompt-cache.ts";
import { type ModelServer, startModelServer } from "./model-server.ts";

const MARK = { cache_control: { type: "ephemeral" } };
/** ~1,250 estimated tokens: over the 1,024 the cache keeps. */
const LONG_SYSTEM = "You are a careful agent. ".repeat(200);
const tool = (name: string) => ({ name, description: `The ${name} tool.`, input_schema: { type: "object" } });
const user = (text: string, marked = false) => ({
  role: "user",
  content: [{ type: "text", text, ...(marked ? MARK : {}) }],
});
const assistant = (text: string) => ({ role: "assistant", content: [{ type: "text", text }] });

function request(messages: unknown[], system = LONG_SYSTEM): Record<string, unknown> {
  return {
    model: "claude-sonnet-4-5",
    tools: [tool("read"), tool("bash")],
    system: [{ type: "text", text: system, ...MARK }],
    messages,
  };
}

describe("AnthropicPromptCache", () => {
  it("writes the prefix up to each breakpoint on a first request and reads it on the next", () => {
    const cache = new AnthropicPromptCache();
    const body = request([user("Hi", true)]);
    const total = fixed(body) + estimateTokens(user("Hi").content[0]);
    const first = cache.account(body);
    expect(first.usage.cacheRead).toBe(0);
    expect(first.usage.input + first.usage.cacheWrite).toBe(total);
    expect(first.usage.input).toBe(0); // everything up to the last breakpoint is written
    cache.commit(first);
    const second = cache.account(body);
    expect(second.usage).toEqual({ input: 0, cacheRead: first.usage.cacheWrite, cacheWrite: 0 });
  });

  it("reads the previous turn's prefix when the conversation has grown, and writes the new part", () => {
    const cache = new AnthropicPromptCache();
    const turn1 = cache.account(request([user("Read a.ts", true)]));
    cache.commit(turn1);
    const turn2 = cache.account(
      request([user("Read a.ts", true), assistant("Here it is."), user("Now b.ts", true)]),
    );
    expect(turn2.usage.cacheRead).toBe(turn1.usage.cacheWrite);
    expect(turn2.usage.cacheWrite).toBe(
      estimateTokens(assistant("Here it is.").content[0]) + estimateTokens(user("Now b.ts").content[0]),
    );
    expect(turn2.usage.input).toBe(0);
  });

  it("finds an earlier entry at most 20 blocks before a breakpoint", () => {
    const cache = new AnthropicPromptCache();
    const first = cache.account(request([user("start", true)]));
    cache.commit(first);
    const grown = (turns: number) => {
      const messages: unknown[] = [user("start")];
      for (let i = 0; i < turns; i++) messages.push(assistant(`a${i}`), user(`u${i}`));
      const last = messages.length - 1;
      messages[last] = user(`u${turns - 1}`, true);
      return request(messages);
    };
    // 20 blocks after the entry: still found; 22: only the system prompt's entry is.
    expect(cache.account(grown(10)).usage.cacheRead).toBe(first.usage.cacheWrite);
    const far = cache.account(grown(11)).usage.cacheRead;
    expect(far).toBeLessThan(first.usage.cacheWrite);
    expect(far).toBe(fixed(request([])));
  });

  it("keeps nothing shorter than the minimum, and shares nothing between requests in flight together", () => {
    const short = new AnthropicPromptCache();
    const small = request([user("Hi", true)], "Be brief.");
    const once = short.account(small);
    expect(once.usage).toMatchObject({ cacheRead: 0, cacheWrite: 0 });
    short.commit(once);
    expect(short.account(small).usage.cacheRead).toBe(0);

    const cache = new AnthropicPromptCache();
    const body = request([user("Hi", true)]);
    const a = cache.account(body);
    const b = cache.account(body); // arrives before a is answered
    expect(b.usage.cacheRead).toBe(0);
    expect(b.usage.cacheWrite).toBe(a.usage.cacheWrite);
  });

  it("misses everything after a changed tool definition: tools come first in the cached order", () => {
    const cache = new AnthropicPromptCache();
    cache.commit(cache.account(request([user("Hi", true)])));
    const changed = request([user("Hi", true)]);
    changed.tools = [tool("read"), { ...tool("bash"), description: "Runs a command." }];
    expect(cache.account(changed).usage.cacheRead).toBe(0);
  });

  it("counts a request's tools (what the model reads of them) and system prompt as its fixed tokens", () => {
    const body = request([user("Hi")]);
    body.tools = [tool("read"), { ...tool("bash"), eager_input_streaming: true, ...MARK }];
    expect(toolTokens((body.tools as unknown[])[1])).toBe(estimateTokens(tool("bash")));
    expect(fixedTokens(body)).toEqual({
      tools: estimateTokens(tool("read")) + estimateTokens(tool("bash")),
      system: estimateTokens({ type: "text", text: LONG_SYSTEM }),
    });
  });
});

function fixed(body: Record<string, unknown>): number {
  const { tools, system } = fixedTokens(body);
  return tools + system;
}

describe("the model server's prompt cache, through the Anthropic adapter", () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("reports the cache reads agentry's breakpoints earn on a second turn", async () => {
    server = await startModelServer([{ text: "one" }, { text: "two" }], { promptCache: {} });
    const model = createModel(
      "anthropic:claude-sonnet-4-5",
      { anthropic: { apiKey: "k", baseUrl: server.anthropicBaseUrl }, retry: { maxRetries: 0 } },
      {},
    );
    const usage = async (messages: Message[]): Promise<Usage> => {
      const stream = model.stream({ system: LONG_SYSTEM, messages, tools: [] });
      for await (const _ of stream) {
        /* drain */
      }
      const message = await stream.result();
      expect(message.stopReason).toBe("stop");
      return message.usage;
    };
    const ask = { role: "user" as const, content: [{ type: "text" as const, text: "Hello" }] };
    const first = await usage([ask]);
    expect(first.cacheRead).toBe(0);
    expect(first.cacheWrite).toBeGreaterThan(1024);
    const second = await usage([
      ask,
      {
        role: "assistant",
        content: [{ type: "text", text: "one" }],
        stopReason: "stop",
        usage: first,
        model: model.id,
      },
      { role: "user", content: [{ type: "text", text: "Again" }] },
    ]);
    expect(second.cacheRead).toBe(first.cacheWrite);
    expect(second.input).toBe(0);
    expect(second.cacheWrite).toBeGreaterThan(0);
  });
});
