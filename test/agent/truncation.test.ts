import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { truncateMiddle } from "../../src/agent/tool-calls/truncate.ts";
import { STATE_GITIGNORE } from "../../src/state/state-dir.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { sessionWithPrompt, tempWorkspace, testConfig, toolResultsIn } from "./support/harness.ts";

const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join("\n");

const loud = defineTool({
  name: "loud",
  description: "Prints many lines.",
  schema: z.object({ count: z.number() }),
  async execute({ count }) {
    return lines(count);
  },
});

describe("truncating long tool output", () => {
  it("keeps head and tail, says what was cut, and spills the full text to a file the model can read", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel([
      { toolCalls: [{ id: "big/1", name: "loud", args: { count: 2000 } }] },
      { text: "ok" },
    ]);
    const session = await sessionWithPrompt(workspace);
    await runAgentLoop(
      testConfig(workspace, model, { tools: [loud], toolOutputLimit: 2000 }),
      session,
      () => {},
    );

    const content = toolResultsIn(model.requests[1]?.messages ?? [])[0]?.content ?? "";
    const full = lines(2000);
    expect(content.length).toBeLessThanOrEqual(2000);
    expect(content.startsWith("line 1\nline 2\n")).toBe(true);
    expect(content.endsWith("line 1999\nline 2000")).toBe(true);
    const spill = join(workspace, ".agentry", "tool-output", `${session.id}-big_1.txt`);
    expect(content).toContain(`The full output is saved at ${spill}`);
    expect(content).toMatch(/characters omitted \(lines \d+–\d+\)/);
    expect(content).toContain("read tool, using offset/limit");
    expect(await readFile(spill, "utf8")).toBe(full);
    expect(await readFile(join(workspace, ".agentry", ".gitignore"), "utf8")).toBe(STATE_GITIGNORE);
  });

  it("leaves output within the limit untouched and writes no file", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel([
      { toolCalls: [{ id: "s", name: "loud", args: { count: 3 } }] },
      { text: "ok" },
    ]);
    await runAgentLoop(
      testConfig(workspace, model, { tools: [loud], toolOutputLimit: 2000 }),
      await sessionWithPrompt(workspace),
      () => {},
    );
    expect(toolResultsIn(model.requests[1]?.messages ?? [])[0]?.content).toBe("line 1\nline 2\nline 3");
    await expect(readFile(join(workspace, ".agentry", "tool-output", "x"))).rejects.toThrow();
  });

  it("names exactly the omitted lines", () => {
    const text = lines(100);
    const { text: out, truncated } = truncateMiddle(
      text,
      560,
      ({ fromLine, toLine, chars }) => `${fromLine}-${toLine}:${chars}`,
    );
    expect(truncated).toBe(true);
    const [, from, to, chars] = out.match(/\n\[(\d+)-(\d+):(\d+)\]\n/) ?? [];
    const kept = out.split(/\[.*\]\n/);
    const headLines = kept[0]?.trimEnd().split("\n") ?? [];
    const tailLines = kept[1]?.split("\n") ?? [];
    expect(headLines.at(-1)).toBe(`line ${Number(from) - 1}`);
    expect(tailLines[0]).toBe(`line ${Number(to) + 1}`);
    expect(Number(chars)).toBe(text.length - (kept[0]?.length ?? 0) - (kept[1]?.length ?? 0));
  });
});
