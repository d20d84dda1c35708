import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { grepTool } from "../../src/tools/grep.ts";
import { grepWithJs } from "../../src/tools/grep-js.ts";
import type { GrepQuery } from "../../src/tools/grep-query.ts";
import { grepWithRipgrep, hasRipgrep } from "../../src/tools/grep-ripgrep.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "./tool-context.ts";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
  const files: Record<string, string> = {
    "src/a.ts": "import x from 'y';\nexport function alpha() {}\nconst TODO = 1;\n",
    "src/b.js": "// todo: later\nfunction beta() {}\n",
    "src/deep/c.ts": "one\ntwo\nmatch here\nthree\nfour\nfive\nsix\nmatch again\nseven\n",
    "README.md": "TODO write docs\n",
    "node_modules/pkg/index.js": "TODO in a dependency\n",
    ".agentry/sessions/s.jsonl": "TODO in a transcript\n",
    ".git/HEAD": "TODO in git\n",
    "dist/out.js": "TODO in build output\n",
    ".gitignore": "dist/\n*.log\n",
    "debug.log": "TODO in a log\n",
    ".hidden/h.txt": "TODO hidden but not ignored\n",
  };
  for (const [name, content] of Object.entries(files)) {
    await mkdir(dirname(join(box.workspace, name)), { recursive: true });
    await writeFile(join(box.workspace, name), content);
  }
  await writeFile(join(box.workspace, "src", "bin.dat"), Buffer.from([0, 1, 2, 84, 79, 68, 79]));
});

const grep = (args: Record<string, unknown>) => runTool(grepTool, args, makeContext(box.workspace).ctx);

describe("grep", () => {
  it("lists matching files, skipping .git, node_modules, .agentry, gitignored and binary files", async () => {
    const { ctx, asks } = makeContext(box.workspace);
    const result = await runTool(grepTool, { pattern: "TODO" }, ctx);
    expect(result.content).toBe("Found 3 files\n.hidden/h.txt\nREADME.md\nsrc/a.ts");
    expect(asks).toEqual([{ permission: "read", patterns: ["."], title: "grep TODO in ." }]);
  });

  it("is case-insensitive with -i and filters by glob at any depth", async () => {
    expect((await grep({ pattern: "todo", "-i": true, glob: "*.{ts,js}" })).content).toBe(
      "Found 2 files\nsrc/a.ts\nsrc/b.js",
    );
    expect((await grep({ pattern: "todo", "-i": true, glob: "src/*.js" })).content).toBe(
      "Found 1 file\nsrc/b.js",
    );
  });

  it("shows content as path:line:text", async () => {
    expect((await grep({ pattern: "function \\w+", output_mode: "content" })).content).toBe(
      "src/a.ts:2:export function alpha() {}\nsrc/b.js:2:function beta() {}",
    );
  });

  it("shows context lines as path-line-text with -- between groups", async () => {
    const result = await grep({ pattern: "match", path: "src/deep", output_mode: "content", context: 1 });
    expect(result.content).toBe(
      [
        "src/deep/c.ts-2-two",
        "src/deep/c.ts:3:match here",
        "src/deep/c.ts-4-three",
        "--",
        "src/deep/c.ts-7-six",
        "src/deep/c.ts:8:match again",
        "src/deep/c.ts-9-seven",
      ].join("\n"),
    );
  });

  it("counts matches per file", async () => {
    expect((await grep({ pattern: "match|one", output_mode: "count" })).content).toBe("src/deep/c.ts:3");
  });

  it("searches one file given as path", async () => {
    expect((await grep({ pattern: "beta", path: "src/b.js", output_mode: "content" })).content).toBe(
      "src/b.js:2:function beta() {}",
    );
  });

  it("limits results with head_limit and says how many there were", async () => {
    expect((await grep({ pattern: "TODO", head_limit: 2 })).content).toBe(
      "Found 3 files\n.hidden/h.txt\nREADME.md\n\n(Showing the first 2 of 3 files; raise head_limit or narrow the search to see more.)",
    );
  });

  it("says when nothing matches", async () => {
    expect((await grep({ pattern: "zzz", path: "src" })).content).toBe('No matches for "zzz" in src.');
  });

  it("reports an invalid regex and a missing path clearly", async () => {
    await expect(grep({ pattern: "(unclosed" })).rejects.toThrow(
      /Invalid regular expression|regex parse error/,
    );
    await expect(grep({ pattern: "x", path: "srcc" })).rejects.toThrow(
      "srcc does not exist. Did you mean: src?",
    );
  });

  it("gives the same output with ripgrep as without it, when ripgrep is installed", async (context) => {
    if (!(await hasRipgrep(nodeOperations, box.workspace))) context.skip();
    const base = { pattern: "TODO|match", root: box.workspace, target: box.workspace, targetRelative: "." };
    const queries: GrepQuery[] = [
      { ...base, targetIsFile: false, mode: "files_with_matches", ignoreCase: true, context: 0 },
      { ...base, targetIsFile: false, mode: "content", ignoreCase: false, context: 2 },
      { ...base, targetIsFile: false, mode: "count", ignoreCase: false, context: 0, glob: "*.ts" },
    ];
    const signal = new AbortController().signal;
    for (const query of queries) {
      expect(await grepWithRipgrep(nodeOperations, query, signal)).toEqual(
        await grepWithJs(nodeOperations, query, signal),
      );
    }
  });
});
