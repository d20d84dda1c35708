import { describe, expect, it } from "vitest";
import { makeWorkspace, runCli } from "../support/cli-process.ts";

/** Issue 29: a newcomer with no key learns what to set, and that the demo needs none. */
describe("agentry run with no model provider", () => {
  it("exits 2 naming the keys to set, and says agentry demo runs without one", async () => {
    const ws = await makeWorkspace();
    const result = await runCli(["run", "hello"], { cwd: ws.dir, env: ws.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("No model provider is configured");
    expect(result.stderr).toContain("set ANTHROPIC_API_KEY");
    expect(result.stderr).toContain("`agentry demo` needs no key");
  });
});
