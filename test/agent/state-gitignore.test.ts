import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Session } from "../../src/agent/session/session.ts";
import { userText } from "../../src/model/messages.ts";
import { tempWorkspace } from "./support/harness.ts";

describe(".agentry/.gitignore", () => {
  it("hides state from git but keeps agent definitions and config committable", async () => {
    const workspace = await tempWorkspace();
    execFileSync("git", ["init", "-q"], { cwd: workspace });
    const session = await Session.create({ workspace, agentName: "main", model: "scripted:model" });
    await session.append(userText("hello"));
    await mkdir(join(workspace, ".agentry", "agents", "review"), { recursive: true });
    await writeFile(
      join(workspace, ".agentry", "agents", "review", "security.md"),
      "---\nname: security\n---\n",
    );
    await mkdir(join(workspace, ".agentry", "agents", "main", "tasks"), { recursive: true });
    await writeFile(join(workspace, ".agentry", "agents", "main", "tasks", "s.json"), "{}");
    await writeFile(join(workspace, ".agentry", "config.json"), "{}");

    const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], {
      cwd: workspace,
      encoding: "utf8",
    });
    const paths = status
      .trim()
      .split("\n")
      .map((line) => line.slice(3))
      .sort();
    expect(paths).toEqual([
      ".agentry/.gitignore",
      ".agentry/agents/review/security.md",
      ".agentry/config.json",
    ]);
  });
});
