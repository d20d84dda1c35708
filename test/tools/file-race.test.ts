import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import { editTool } from "../../src/tools/edit/edit.ts";
import { globTool } from "../../src/tools/glob/glob.ts";
import { grepTool } from "../../src/tools/grep/grep.ts";
import { listTool } from "../../src/tools/list/list.ts";
import { readTool } from "../../src/tools/read/read.ts";
import type { AnyTool, ToolContext } from "../../src/tools/tool.ts";
import { writeTool } from "../../src/tools/write/write.ts";
import { describeWith, RIPGREP } from "../support/components.ts";
import { scaled } from "../support/time-scale.ts";
import { type GrepEngine, opsFor } from "./grep/grep-engines.ts";
import { keepSwapping, pauseAtRealFolder } from "./swapped-folder.ts";
import { makeContext, makeSandbox, runTool } from "./tool-context.ts";

// Tool calls of one message run concurrently, and children share the workspace: a command may keep
// swapping the folder `d` for a link to elsewhere while a file tool works on `d/…`. Before the tools
// opened exactly the path they checked, a write landed outside within a few dozen attempts (a read, in
// a few hundred); each test makes a fixed number and counts what got through, so none decides by time.
const ATTEMPTS = 300;
const READ_ATTEMPTS = 2000;

/** The workspace with `d/` (its file `config` says "old") swapped for a link to `target`. */
async function racingFolder(target: "outside" | ".git") {
  const box = await makeSandbox();
  await mkdir(join(box.workspace, "d"));
  await writeFile(join(box.workspace, "d", "config"), "old\n");
  await writeFile(join(box.workspace, "d", "secret"), "public\n");
  await writeFile(join(box.outside, "config"), "old\n");
  await writeFile(join(box.outside, "secret"), "TOP SECRET\n");
  await writeFile(join(box.outside, "outside-only.txt"), "TOP SECRET\n");
  execFileSync("git", ["init", "-q", box.workspace]);
  const gitConfig = await readFile(join(box.workspace, ".git", "config"), "utf8");
  const swapper = await keepSwapping(
    join(box.workspace, "d"),
    target === "outside" ? box.outside : join(box.workspace, ".git"),
  );
  const outsideNow = async () => ({
    files: (await readdir(box.outside)).sort(),
    config: await readFile(join(box.outside, "config"), "utf8"),
    gitConfig: await readFile(join(box.workspace, ".git", "config"), "utf8"),
  });
  const untouched = { files: ["config", "outside-only.txt", "secret"], config: "old\n", gitConfig };
  return { box, swapper, outsideNow, untouched };
}

/** Calls `tool` ATTEMPTS times; returns the results that came back (failures are the refusals). */
async function attempts(tool: AnyTool, args: () => unknown, ctx: ToolContext, count = ATTEMPTS) {
  const results: string[] = [];
  for (let i = 0; i < count; i++) {
    await runTool(tool, args(), ctx).then(
      (result) => results.push(result.content),
      () => {},
    );
  }
  return results;
}

// The bound only catches a hang: a few thousand tool calls take some seconds on a busy machine.
describe("file tools against a folder swapped for a symbolic link", { timeout: scaled(120_000) }, () => {
  for (const target of ["outside", ".git"] as const) {
    it(`write never lands in ${target}`, async () => {
      const { box, swapper, outsideNow, untouched } = await racingFolder(target);
      // The real gate, as with --permission-mode accept-edits: edits pass, `.git/config` needs a person.
      const gate = createPermissionGate({ rules: DEFAULT_RULES, mode: "accept-edits" });
      const { ctx } = makeContext(box.workspace, { ask: (request) => gate(request, { path: ["main"] }) });
      let written = 0;
      for (let i = 0; i < ATTEMPTS; i++) {
        await runTool(writeTool, { path: "d/config", content: `attempt ${i}\n` }, ctx).then(
          () => written++,
          () => {},
        );
        // Stops at the first escape, so a failing run says where it landed.
        expect(await outsideNow()).toEqual(untouched);
      }
      expect(swapper.exitCode).toBeNull();
      expect(written).toBeGreaterThan(0);
    });
  }

  it("edit never changes a file outside", async () => {
    const { box, swapper, outsideNow, untouched } = await racingFolder("outside");
    const { ctx } = makeContext(box.workspace);
    for (let i = 0; i < ATTEMPTS; i++) {
      await runTool(editTool, { path: "d/config", old_string: "old\n", new_string: "new\n" }, ctx).catch(
        () => {},
      );
      await runTool(editTool, { path: "d/config", old_string: "new\n", new_string: "old\n" }, ctx).catch(
        () => {},
      );
      expect(await outsideNow()).toEqual(untouched);
    }
    expect(swapper.exitCode).toBeNull();
  });

  it("read never returns a file outside", async () => {
    const { box, swapper } = await racingFolder("outside");
    const { ctx } = makeContext(box.workspace);
    const results = await attempts(readTool, () => ({ path: "d/secret" }), ctx, READ_ATTEMPTS);
    expect(results.filter((content) => content.includes("TOP SECRET"))).toEqual([]);
    // That it reads the folder at all: one of the racing calls, or else one with the swapper stopped.
    if (!results.includes("1\tpublic")) {
      await pauseAtRealFolder(swapper, join(box.workspace, "d"));
      results.push((await runTool(readTool, { path: "d/secret" }, ctx)).content);
    }
    expect(results).toContain("1\tpublic");
    expect(swapper.exitCode).toBeNull();
  });

  it("list and glob never show names from outside", async () => {
    const { box, swapper } = await racingFolder("outside");
    const { ctx } = makeContext(box.workspace);
    const listed = await attempts(listTool, () => ({}), ctx);
    const globbed = await attempts(globTool, () => ({ pattern: "**/*" }), ctx);
    expect([...listed, ...globbed].filter((content) => content.includes("outside-only"))).toEqual([]);
    expect(listed.some((content) => content.includes("secret"))).toBe(true);
    expect(swapper.exitCode).toBeNull();
  });

  describe("grep (JavaScript engine)", () => grepNeverReadsOutside("js"));
  describeWith(RIPGREP, "grep (ripgrep)", () => grepNeverReadsOutside("ripgrep"));
});

function grepNeverReadsOutside(engine: GrepEngine) {
  it("never returns lines of a file outside", async () => {
    const { box, swapper } = await racingFolder("outside");
    const { ctx } = makeContext(box.workspace, { ops: opsFor(engine) });
    const results = await attempts(
      grepTool,
      () => ({ pattern: "SECRET|public", output_mode: "content" }),
      ctx,
      // A ripgrep search is a process each: slower, and its longer read loses the race sooner.
      engine === "js" ? READ_ATTEMPTS : ATTEMPTS / 2,
    );
    expect(results.filter((content) => content.includes("TOP SECRET"))).toEqual([]);
    // That it reads the folder at all: one of the racing calls, or else one with the swapper stopped.
    if (!results.includes("d/secret:1:public")) {
      await pauseAtRealFolder(swapper, join(box.workspace, "d"));
      results.push(
        (await runTool(grepTool, { pattern: "SECRET|public", output_mode: "content" }, ctx)).content,
      );
    }
    expect(results).toContain("d/secret:1:public");
    expect(swapper.exitCode).toBeNull();
  });
}
