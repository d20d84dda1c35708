import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../src/permissions/defaults.ts";
import { createPermissionGate } from "../../../src/permissions/gate.ts";
import type { PermissionRequest } from "../../../src/permissions/types.ts";
import { bashTool } from "../../../src/tools/bash/bash.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tool-context.ts";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
  await mkdir(join(box.workspace, "src"));
  await writeFile(join(box.workspace, "src", "a.ts"), "const a = 1;\n");
  await writeFile(join(box.workspace, ".env"), "TOKEN=dotenv-secret\n");
  await writeFile(join(box.outside, "secret.txt"), "outside-secret\n");
  await symlink(join(box.outside, "secret.txt"), join(box.workspace, "link.txt"));
});
afterEach(() => box.cleanup());

/** The asks a command makes without an OS sandbox, beyond its `bash` ask; everything is allowed. */
async function asksOf(command: string): Promise<PermissionRequest[]> {
  const { ctx, asks } = makeContext(box.workspace);
  await runTool(bashTool, { command }, ctx);
  return asks.filter((request) => request.permission !== "bash");
}

/** Runs `command` without a sandbox under the default rules in a non-interactive run. */
async function underDefaultRules(command: string) {
  const gate = createPermissionGate({ rules: DEFAULT_RULES, mode: "default" });
  const { ctx } = makeContext(box.workspace, {
    ask: (request) => gate(request, { path: ["main"] }),
  });
  return runTool(bashTool, { command }, ctx);
}

describe("bash without an OS sandbox: what a command's operands ask", () => {
  it("a symlink inside the workspace that leads outside asks external_directory for its target", async () => {
    const asks = await asksOf("cat link.txt");
    expect(asks).toContainEqual(
      expect.objectContaining({
        permission: "external_directory",
        patterns: [join(box.outside, "secret.txt")],
      }),
    );
    await expect(underDefaultRules("cat link.txt")).rejects.toThrow(/external_directory/);
  });

  it("a file the read rules keep back (.env) is asked as a read, so a non-interactive run refuses it", async () => {
    const asks = await asksOf("cat src/a.ts .env");
    expect(asks).toContainEqual(
      expect.objectContaining({ permission: "read", patterns: ["src/a.ts", ".env"] }),
    );
    await expect(underDefaultRules("cat .env")).rejects.toThrow(/read '\.env'/);
    await expect(underDefaultRules("cat .e*")).rejects.toThrow(/read '\.env'/);
    expect((await underDefaultRules("cat src/a.ts")).content).toContain("const a = 1;");
  });

  it("recursive reads ask for every file they reach", async () => {
    await rm(join(box.workspace, "link.txt"));
    for (const command of [
      "grep -r secret .",
      "grep -rn secret",
      "rg secret",
      "find . -type f | xargs cat",
      "find . -name '*env*' -exec cat {} +",
      "grep -R secret src/..",
    ]) {
      await expect(underDefaultRules(command), command).rejects.toThrow(/read .*'\.env'/);
    }
    // A search of a folder without secrets goes through.
    expect((await underDefaultRules("grep -rn const src")).content).toContain("src/a.ts");
  });

  it("reading another process's environment asks external_directory", async () => {
    await expect(underDefaultRules("cat /proc/$PPID/environ")).rejects.toThrow(/external_directory/);
  });
});
