import { execFileSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { buildSystemPrompt, isInsideGitRepo } from "../../src/agent/system-prompt.ts";
import { tempDir } from "../support/temp-dir.ts";

let dir: string;
beforeEach(async () => {
  dir = await tempDir("agentry-prompt-");
});

describe("system prompt", () => {
  it("fills in the environment and explains the tools", async () => {
    const prompt = await buildSystemPrompt({
      workspace: dir,
      now: new Date("2025-03-04T10:00:00Z"),
      platform: "linux (x64)",
    });
    expect(prompt).toContain(`Working directory (the workspace): ${dir}`);
    expect(prompt).toContain("Platform: linux (x64)");
    expect(prompt).toContain("Today's date: 2025-03-04");
    expect(prompt).toContain("Git repository: no");
    for (const tool of ["`read`", "`edit`", "`write`", "`grep`", "`glob`", "`list`", "`bash`"])
      expect(prompt).toContain(tool);
    expect(prompt).not.toMatch(/\{\{\w+\}\}/);
  });

  it("detects a git repository from a subdirectory", async () => {
    execFileSync("git", ["init", "-q", dir]);
    const sub = join(dir, "pkg", "src");
    await mkdir(sub, { recursive: true });
    expect(await isInsideGitRepo(sub)).toBe(true);
    expect(await buildSystemPrompt({ workspace: sub })).toContain("Git repository: yes");
  });

  it("replaces or extends the prompt, keeping the environment", async () => {
    const replaced = await buildSystemPrompt({ workspace: dir, replace: "You only answer in haiku." });
    expect(replaced.startsWith("You only answer in haiku.")).toBe(true);
    expect(replaced).toContain(`cwd: ${dir}`);
    expect(replaced).not.toContain("# How to work");
    const appended = await buildSystemPrompt({ workspace: dir, append: "Always run npm test." });
    expect(appended).toContain("# How to work");
    expect(appended.trimEnd().endsWith("Always run npm test.")).toBe(true);
  });
});
