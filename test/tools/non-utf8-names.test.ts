import { mkdir, readFile, writeFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "../../src/tools/edit/edit.ts";
import { globTool } from "../../src/tools/glob/glob.ts";
import { grepTool } from "../../src/tools/grep/grep.ts";
import { hasRipgrep } from "../../src/tools/grep/grep-ripgrep.ts";
import { listTool } from "../../src/tools/list/list.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import type { Operations } from "../../src/tools/operations.ts";
import { readTool } from "../../src/tools/read/read.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "./tool-context.ts";

let box: Sandbox;

/** An absolute path of the workspace as raw bytes: node only reaches such names through a Buffer. */
const raw = (...parts: Array<string | number[]>) =>
  Buffer.concat([
    Buffer.from(box.workspace),
    ...parts.flatMap((part) => [
      Buffer.from("/"),
      typeof part === "string" ? Buffer.from(part) : Buffer.from(part),
    ]),
  ]);

/** The names on disk (bytes) and the form the tools show them in. */
const latin1Name = [...Buffer.from("caf"), 0xe9, ...Buffer.from(".txt")]; // "café" saved by a Latin-1 system
const badDir = [...Buffer.from("d"), 0xff];
const SHOWN = {
  latin1: "caf\\xE9.txt",
  inBadDir: "d\\xFF/inner.txt",
  // A valid UTF-8 name that merely looks like an escape keeps its meaning: its backslash is escaped too.
  lookalike: "a\\x5Cx41.txt",
  utf8: "café.txt",
};

beforeEach(async () => {
  box = await makeSandbox();
  await writeFile(raw(latin1Name), "hello from latin1\n");
  await mkdir(raw(badDir));
  await writeFile(raw(badDir, "inner.txt"), "hello from a bad directory\n");
  await writeFile(raw("a\\x41.txt"), "hello from a lookalike\n");
  await writeFile(raw("café.txt"), "hello from utf8\n");
});
afterEach(() => box.cleanup());

const shown = Object.values(SHOWN).sort();

/** Operations without ripgrep, so grep runs its JavaScript engine. */
const withoutRipgrep: Operations = {
  ...nodeOperations,
  exec: async () => ({ exitCode: 1, output: "", timedOut: false, aborted: false }),
};

describe("file names that are not valid UTF-8", () => {
  it("list, glob and grep show every name in a form read accepts", async () => {
    const { ctx } = makeContext(box.workspace);
    const listed = (await runTool(listTool, {}, ctx)).content;
    for (const name of ["caf\\xE9.txt", "d\\xFF/", "inner.txt", SHOWN.lookalike, SHOWN.utf8]) {
      expect(listed).toContain(name);
    }
    expect(listed).not.toContain("\uFFFD");

    const globbed = (await runTool(globTool, { pattern: "**/*.txt" }, ctx)).content.split("\n").sort();
    expect(globbed).toEqual(shown);

    if (process.env.CI === "true") {
      expect(await hasRipgrep(nodeOperations, box.workspace), "ripgrep (rg) is not installed").toBe(true);
    }
    // With ripgrep on the PATH the first one runs it; the second always runs the JavaScript engine.
    const engines = [ctx, { ...ctx, ops: withoutRipgrep }];
    for (const engineCtx of engines) {
      const found = (await runTool(grepTool, { pattern: "hello" }, engineCtx)).content.split("\n").slice(1);
      expect(found.sort()).toEqual(shown);
      const content = (await runTool(grepTool, { pattern: "latin1", output_mode: "content" }, engineCtx))
        .content;
      expect(content).toBe(`${SHOWN.latin1}:1:hello from latin1`);
    }

    for (const path of globbed) {
      const result = await runTool(readTool, { path }, ctx);
      expect(result.content).toMatch(/^1\thello from /);
    }
  });

  it("read and edit reach the file behind an escaped name, and permissions see that name", async () => {
    const { ctx, asks } = makeContext(box.workspace);
    expect((await runTool(readTool, { path: SHOWN.latin1 }, ctx)).content).toBe("1\thello from latin1");
    await runTool(editTool, { path: SHOWN.inBadDir, old_string: "bad", new_string: "strange" }, ctx);
    expect(await readFile(raw(badDir, "inner.txt"), "utf8")).toBe("hello from a strange directory\n");
    expect(asks.map((ask) => ask.patterns)).toEqual([[SHOWN.latin1], [SHOWN.inBadDir]]);
  });

  it("a missing escaped name is reported as shown, with the near names", async () => {
    const { ctx } = makeContext(box.workspace);
    await expect(runTool(readTool, { path: "caf\\xE8.txt" }, ctx)).rejects.toThrow(
      "caf\\xE8.txt does not exist. Did you mean: caf\\xE9.txt",
    );
  });
});
