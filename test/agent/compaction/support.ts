import { z } from "zod";
import { isCompactionRequest } from "../../../src/agent/compaction/compact-history.ts";
import { requestChars } from "../../../src/agent/limits/token-estimate.ts";
import type { Message, Usage } from "../../../src/model/messages.ts";
import type { ModelRequest } from "../../../src/model/model.ts";
import type { ScriptedReply } from "../../../src/testing/index.ts";
import { defineTool } from "../../../src/tools/tool.ts";

/** The value of fact `n`: the agent can only answer right if every one of them reaches its last call. */
export const factValue = (n: number) => ((n * 7) % 11) + 1;

/** Returns one fact, padded to `padding` characters: a tool whose outputs fill a small window fast. */
export function factTool(padding: number) {
  return defineTool({
    name: "fact",
    description: "Returns fact n.",
    schema: z.object({ n: z.number().int() }),
    async execute({ n }) {
      return `fact ${n}: the number is ${factValue(n)}\n${"·".repeat(padding)}`;
    },
  });
}

/** Every text the model can see in a request: messages, tool outputs, summaries. */
export function visibleText(messages: readonly Message[]): string {
  const texts: string[] = [];
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === "text") texts.push(part.text);
      else if (part.type === "tool_result") texts.push(part.content);
    }
  }
  return texts.join("\n");
}

/** The facts a request shows, by number: from tool outputs (`fact 3: the number is 10`) or a summary (`fact 3 = 10`). */
export function knownFacts(request: ModelRequest): Map<number, number> {
  const known = new Map<number, number>();
  const text = visibleText(request.messages);
  for (const match of text.matchAll(/fact (\d+)(?:: the number is| =) (\d+)/g))
    known.set(Number(match[1]), Number(match[2]));
  return known;
}

/** What a provider would report for the request: about four characters a token. */
export function reportedUsage(request: ModelRequest): Partial<Usage> {
  return { input: Math.ceil(requestChars(request) / 4), output: 20 };
}

/** A faithful summarizer: lists every fact the turns to summarize show. */
export function summarize(request: ModelRequest): ScriptedReply {
  const facts = [...knownFacts(request)].sort(([a], [b]) => a - b);
  return {
    text: `The user wants the sum of facts 1 to N.\n${facts.map(([n, v]) => `fact ${n} = ${v}`).join("\n")}`,
    usage: reportedUsage(request),
  };
}

/**
 * An agent that asks for facts 1..`count` one per turn, then answers their sum, knowing only what its
 * request shows; a summary call (`isCompactionRequest`) goes to `summarizer`.
 */
export function factAgent(count: number, summarizer: (request: ModelRequest) => ScriptedReply = summarize) {
  return (request: ModelRequest): ScriptedReply => {
    if (isCompactionRequest(request)) return summarizer(request);
    const known = knownFacts(request);
    const next = [...Array(count).keys()].map((i) => i + 1).find((n) => !known.has(n));
    if (next !== undefined) {
      return { toolCalls: [{ name: "fact", args: { n: next } }], usage: reportedUsage(request) };
    }
    const sum = [...known.values()].reduce((a, b) => a + b, 0);
    return { text: `The sum is ${sum}.`, usage: reportedUsage(request) };
  };
}

export const expectedSum = (count: number) =>
  [...Array(count).keys()].map((i) => factValue(i + 1)).reduce((a, b) => a + b, 0);
