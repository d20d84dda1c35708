import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpServerSet, openMcpServers } from "../../src/mcp/mcp-servers.ts";
import type { AnyTool } from "../../src/tools/tool.ts";
import { testServerConfig } from "../support/mcp-server-process.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tools/tool-context.ts";

let sandbox: Sandbox;
let set: McpServerSet;

function steps(): AnyTool {
  const found = set.tools.find((tool) => tool.name === "mcp__burst__steps");
  if (found === undefined) throw new Error(`no steps tool: ${JSON.stringify(set.failures)}`);
  return found;
}

beforeAll(async () => {
  sandbox = await makeSandbox();
  // --burst: the server's progress notifications and its result reach us in one chunk.
  set = await openMcpServers(
    { burst: testServerConfig("--burst") },
    { cwd: sandbox.workspace, env: process.env },
  );
});

afterAll(async () => {
  await set?.close();
});

describe("progress read together with the result", () => {
  it("is all shown, in order, before the call ends", async () => {
    const { ctx, progress } = makeContext(sandbox.workspace);
    const result = await runTool(steps(), { count: 3 }, ctx);
    expect(result.content).toBe("3 steps done");
    expect(progress).toEqual(["1/3 (33%)", "2/3 (67%)", "3/3 (100%)"]);
  });

  it("does not hold back a later call's result", async () => {
    const { ctx, progress } = makeContext(sandbox.workspace);
    const results = await Promise.all([1, 2].map((count) => runTool(steps(), { count }, ctx)));
    expect(results.map((result) => result.content)).toEqual(["1 steps done", "2 steps done"]);
    expect([...progress].sort()).toEqual(["1/1 (100%)", "1/2 (50%)", "2/2 (100%)"]);
  });
});
