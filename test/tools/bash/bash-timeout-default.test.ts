import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createBashTool } from "../../../src/tools/bash/bash.ts";
import { builtinTools } from "../../../src/tools/builtin.ts";
import { makeContext, makeSandbox, runTool } from "../tool-context.ts";

describe("bash default timeout", () => {
  it("tells the model the default it really applies", () => {
    const tool = builtinTools({ bash: { defaultTimeoutSeconds: 30 } }).find((t) => t.name === "bash");
    expect(tool?.description).toContain("(default 30, max 600)");
    // The schema carries the bound; the default is said once, in the description.
    expect(JSON.stringify(z.toJSONSchema(tool?.schema ?? z.never()))).toContain('"maximum":600');
    expect(createBashTool().description).toContain("(default 120, max 600)");
  });

  it("kills a command without a timeout argument after the configured default", async () => {
    const sandbox = await makeSandbox();
    const { ctx } = makeContext(sandbox.workspace);
    // Without the default, `sleep 30` would end by itself and the call succeed.
    await expect(
      runTool(createBashTool({ defaultTimeoutSeconds: 1 }), { command: "sleep 30" }, ctx),
    ).rejects.toThrow(/timed out after 1 s/);
  });
});
