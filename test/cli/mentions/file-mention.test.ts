import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentConfig } from "../../../src/agent/config.ts";
import { MENTION_MAX_CHARS } from "../../../src/cli/mentions/file-mention.ts";
import { MentionError } from "../../../src/cli/mentions/mention.ts";
import { promptMessage } from "../../../src/cli/mentions/prompt-message.ts";
import type { TextPart } from "../../../src/model/messages.ts";
import { DEFAULT_RULES } from "../../../src/permissions/defaults.ts";
import { createPermissionGate, type PermissionMode } from "../../../src/permissions/gate.ts";
import type { Ruleset } from "../../../src/permissions/types.ts";
import { scriptedModel } from "../../../src/testing/scripted-model.ts";
import { nodeOperations } from "../../../src/tools/node-operations.ts";
import { tempDir } from "../../support/temp-dir.ts";

async function workspaceWith(files: Record<string, string>): Promise<string> {
  const root = await tempDir("agentry-mention-");
  const workspace = join(root, "project");
  await mkdir(workspace);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(workspace, path, ".."), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
  return workspace;
}

function rootConfig(workspace: string, rules: Ruleset = DEFAULT_RULES, mode: PermissionMode = "default") {
  const config: AgentConfig = {
    name: "main",
    model: scriptedModel([]),
    systemPrompt: "",
    tools: [],
    workspace,
    ops: nodeOperations,
    ask: createPermissionGate({ rules, mode }),
  };
  return config;
}

async function expand(prompt: string, config: AgentConfig) {
  const said: string[] = [];
  const message = await promptMessage(prompt, {
    config,
    signal: new AbortController().signal,
    sessionId: "",
    say: (line) => said.push(line),
  });
  const texts = message.content.map((part) => (part as TextPart).text);
  return { texts, said };
}

describe("@path in a prompt", () => {
  it("inlines a file as the read tool shows it, after the prompt as typed", async () => {
    const workspace = await workspaceWith({ "src/app.ts": "export const a = 1;\nexport const b = 2;\n" });
    const { texts, said } = await expand("explain @src/app.ts.", rootConfig(workspace));
    expect(texts).toEqual([
      "explain @src/app.ts.",
      '<file path="src/app.ts">\n1\texport const a = 1;\n2\texport const b = 2;\n</file>',
    ]);
    expect(said).toEqual(["@ src/app.ts (2 lines)"]);
  });

  it("lists a folder's entries", async () => {
    const workspace = await workspaceWith({ "src/a.ts": "", "src/lib/b.ts": "" });
    const { texts } = await expand("what is in @src", rootConfig(workspace));
    expect(texts[1]).toMatch(/^<directory path="src">\n.*\n {2}lib\/\n {4}b\.ts\n {2}a\.ts\n<\/directory>$/s);
  });

  it("leaves what names nothing as text: @types/node, a handle", async () => {
    const workspace = await workspaceWith({});
    const { texts, said } = await expand("install @types/node and ask @maria", rootConfig(workspace));
    expect(texts).toEqual(["install @types/node and ask @maria"]);
    expect(said).toEqual([]);
  });

  it("refuses a path the read rules ask for when no one can approve it, and one they deny", async () => {
    const workspace = await workspaceWith({ ".env": "KEY=secret\n", "private/notes.md": "x\n" });
    const refused = expand("use @.env", rootConfig(workspace));
    await expect(refused).rejects.toBeInstanceOf(MentionError);
    await expect(refused).rejects.toThrow(
      /^@\.env is not inlined: the permission rules refuse it \(read '\.env' needs approval/,
    );
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "read", pattern: "private/*", action: "deny" }];
    await expect(expand("see @private/notes.md", rootConfig(workspace, rules, "bypass"))).rejects.toThrow(
      /@private\/notes\.md is not inlined: the permission rules refuse it \(read 'private\/notes\.md' is denied by rule/,
    );
  });

  it("refuses a path outside the workspace, directly or through a symlink, that exists", async () => {
    const workspace = await workspaceWith({});
    await writeFile(join(workspace, "..", "outside.txt"), "secret\n");
    await symlink(join(workspace, "..", "outside.txt"), join(workspace, "link.txt"));
    for (const mention of ["@../outside.txt", "@link.txt"]) {
      await expect(expand(`read ${mention}`, rootConfig(workspace, DEFAULT_RULES, "bypass"))).rejects.toThrow(
        new RegExp(`^${mention.replace(/\./g, "\\.")} is not inlined: Refusing .*outside the workspace`),
      );
    }
  });

  it("cuts a long file at the cap, saying where to read on", async () => {
    const line = "x".repeat(99);
    const workspace = await workspaceWith({ "big.txt": `${line}\n`.repeat(1500) });
    const { texts, said } = await expand("@big.txt", rootConfig(workspace));
    const inlined = texts[1] ?? "";
    expect(inlined.length).toBeLessThan(MENTION_MAX_CHARS + 200);
    const last = Number(/\n(\d+)\tx+\n\n\(Cut here/.exec(inlined)?.[1]);
    expect(last).toBeGreaterThan(400);
    expect(inlined).toContain(`read this file from offset=${last + 1} for the rest.)`);
    expect(said[0]).toContain("cut at 50,000 characters");
  });
});
