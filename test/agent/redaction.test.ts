import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { createRedactor } from "../../src/agent/tool-calls/redact.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { eventLog, sessionWithPrompt, tempWorkspace, testConfig, toolResultsIn } from "./support/harness.ts";

const SECRET = "sk-test-0123456789abcdef";

const leaky = defineTool({
  name: "leaky",
  description: "prints the environment",
  schema: z.object({}),
  execute: async (_args, ctx) => {
    ctx.progress(`progress with ${SECRET}`);
    return `ANTHROPIC_API_KEY=${SECRET}\nHOME=/home/me`;
  },
});

describe("secret redaction", () => {
  it("replaces secret env values in tool output before the model, the events or the transcript see them", async () => {
    const workspace = await tempWorkspace();
    const session = await sessionWithPrompt(workspace, "show env");
    const model = scriptedModel([{ toolCalls: [{ name: "leaky", args: {} }] }, { text: "done" }]);
    const log = eventLog();
    const redact = createRedactor({ ANTHROPIC_API_KEY: SECRET, HOME: "/home/me" });
    await runAgentLoop({ ...testConfig(workspace, model), tools: [leaky], redact }, session, log.emit);

    const [result] = toolResultsIn(model.requests[1]?.messages ?? []);
    expect(result?.content).toBe("ANTHROPIC_API_KEY=[REDACTED:ANTHROPIC_API_KEY]\nHOME=/home/me");
    expect(JSON.stringify(log.events)).not.toContain(SECRET);
    expect(await readFile(session.transcriptPath ?? "", "utf8")).not.toContain(SECRET);
  });

  it("leaves short values and ordinary variables alone, and redacts extra secrets by name", () => {
    const redact = createRedactor(
      { GITHUB_TOKEN: "ghp_abcdefghijkl", DEBUG_TOKEN: "1", PATH: "/usr/bin:/bin" },
      { "providers.openai.apiKey": "from-config-key-123" },
    );
    expect(redact("a ghp_abcdefghijkl b 1 /usr/bin:/bin from-config-key-123")).toBe(
      "a [REDACTED:GITHUB_TOKEN] b 1 /usr/bin:/bin [REDACTED:providers.openai.apiKey]",
    );
    expect(createRedactor({})("nothing")).toBe("nothing");
  });
});
