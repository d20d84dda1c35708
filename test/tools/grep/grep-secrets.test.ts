import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../../src/permissions/defaults.ts";
import { type AskHandler, createPermissionGate, type PermissionMode } from "../../../src/permissions/gate.ts";
import type { Ruleset } from "../../../src/permissions/types.ts";
import { grepTool } from "../../../src/tools/grep/grep.ts";
import { describeWith, RIPGREP } from "../../support/components.ts";
import { makeContext, makeSandbox, runTool } from "../tool-context.ts";
import { type GrepEngine, opsFor } from "./grep-engines.ts";

let workspace: string;
beforeEach(async () => {
  workspace = (await makeSandbox()).workspace;
  await mkdir(join(workspace, "sub"));
  await mkdir(join(workspace, "private"));
  await writeFile(join(workspace, ".env"), "API_KEY=sk-live-123\n");
  await writeFile(join(workspace, "sub", ".env.local"), "API_KEY=sk-local-456\n");
  await writeFile(join(workspace, "private", "notes.txt"), "API_KEY=sk-private-789\n");
  await writeFile(join(workspace, ".env.example"), "API_KEY=\n");
  await writeFile(join(workspace, "app.ts"), "const key = process.env.API_KEY;\n");
});

/** grep through the real permission gate: the default rules (`.env` files are asked), then `extra`. */
function grepWith(
  engine: GrepEngine,
  options: { mode?: PermissionMode; extra?: Ruleset; onAsk?: AskHandler },
) {
  const gate = createPermissionGate({
    rules: [...DEFAULT_RULES, ...(options.extra ?? [])],
    mode: options.mode ?? "default",
    ...(options.onAsk === undefined ? {} : { onAsk: options.onAsk }),
  });
  const { ctx } = makeContext(workspace, {
    ops: opsFor(engine),
    ask: (request) => gate(request, { path: ["main"] }),
  });
  return (args: Record<string, unknown>) => runTool(grepTool, args, ctx);
}

describe("grep applies the read rules to each file (JavaScript engine)", () => secretsSuite("js"));
describeWith(RIPGREP, "grep applies the read rules to each file (ripgrep)", () => secretsSuite("ripgrep"));

function secretsSuite(engine: GrepEngine): void {
  it("leaves out the .env files that read would ask for, names them, and prompts no one", async () => {
    const prompts: string[][] = [];
    const grep = grepWith(engine, {
      onAsk: async (request) => {
        prompts.push(request.patterns);
        return "reject";
      },
    });
    const result = await grep({ pattern: "API_KEY", output_mode: "content" });
    expect(result.content).toBe(
      [
        ".env.example:1:API_KEY=",
        "app.ts:1:const key = process.env.API_KEY;",
        "private/notes.txt:1:API_KEY=sk-private-789",
        "",
        "(Not searched: 2 files that need approval to read (.env, sub/.env.local): grep or read one by its path to ask for it.)",
      ].join("\n"),
    );
    expect(prompts).toEqual([]);
    expect(result.details).toMatchObject({
      leftOut: { denied: [], needsApproval: [".env", "sub/.env.local"] },
    });
  });

  it("leaves out what a deny rule keeps back, even where nothing matched", async () => {
    const grep = grepWith(engine, { extra: [{ permission: "read", pattern: "private/**", action: "deny" }] });
    expect((await grep({ pattern: "sk-private" })).content).toBe(
      'No matches for "sk-private" in the workspace.\n\n' +
        "(Not searched: 2 files that need approval to read (.env, sub/.env.local): grep or read one by its path to ask for it; " +
        "1 file whose reading is denied (private/notes.txt).)",
    );
    const inFolder = await grep({ pattern: "API_KEY", path: "private" });
    expect(inFolder.content).toBe(
      'No matches for "API_KEY" in private.\n\n(Not searched: 1 file whose reading is denied (private/notes.txt).)',
    );
  });

  it("searches what an earlier 'always' approved, and everything in bypass mode", async () => {
    const approved = grepWith(engine, { onAsk: async () => "always" });
    // Grepping the file by its path asks, as read does; "always" covers the rule's pattern (`*.env`).
    expect((await approved({ pattern: "API_KEY", path: ".env" })).content).toBe("Found 1 file\n.env");
    expect((await approved({ pattern: "sk-" })).content).toBe(
      "Found 2 files\n.env\nprivate/notes.txt\n\n" +
        "(Not searched: 1 file that needs approval to read (sub/.env.local): grep or read it by its path to ask for it.)",
    );
    const bypass = grepWith(engine, { mode: "bypass" });
    expect((await bypass({ pattern: "sk-" })).content).toBe(
      "Found 3 files\n.env\nprivate/notes.txt\nsub/.env.local",
    );
  });

  it("grep of one .env by its path is asked, and refused without an approver", async () => {
    const grep = grepWith(engine, {});
    await expect(grep({ pattern: "API_KEY", path: "sub/.env.local" })).rejects.toThrow(
      /read 'sub\/\.env\.local'.*needs approval and no one can approve it/,
    );
  });
}
