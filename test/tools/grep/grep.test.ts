import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { grepTool } from "../../../src/tools/grep/grep.ts";
import { describeWith, RIPGREP } from "../../support/components.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tool-context.ts";
import { type GrepEngine, opsFor } from "./grep-engines.ts";

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

describe("grep (JavaScript engine)", () => grepSuite("js"));
describeWith(RIPGREP, "grep (ripgrep)", () => {
  grepSuite("ripgrep");

  it("searches more files than one command line can name", async () => {
    // 1,500 names of ~100 characters: some 150 KB of arguments, over Linux's 128 KiB for one argument.
    await mkdir(join(box.workspace, "many"));
    const names = Array.from(
      { length: 1500 },
      (_, i) => `many/${"n".repeat(90)}${String(i).padStart(4, "0")}.txt`,
    );
    await Promise.all(names.map((name) => writeFile(join(box.workspace, name), "NEEDLE\n")));
    const result = await runTool(
      grepTool,
      { pattern: "NEEDLE", path: "many", output_mode: "count" },
      makeContext(box.workspace).ctx,
    );
    expect(result.content.split("\n")).toEqual(names.map((name) => `${name}:1`));
  });
});

/** Every behaviour, with each engine: the expected output is the same for both. */
function grepSuite(engine: GrepEngine): void {
  const grep = (args: Record<string, unknown>) =>
    runTool(grepTool, args, makeContext(box.workspace, { ops: opsFor(engine) }).ctx);

  it("lists matching files, skipping .git, node_modules, .agentry, gitignored and binary files", async () => {
    const { ctx, asks } = makeContext(box.workspace, { ops: opsFor(engine) });
    const result = await runTool(grepTool, { pattern: "TODO" }, ctx);
    expect(result.content).toBe("Found 3 files\n.hidden/h.txt\nREADME.md\nsrc/a.ts");
    // The folder is asked; then every file the search opens, at once and without a prompt.
    expect(asks).toEqual([
      { permission: "read", patterns: ["."], title: "grep TODO in ." },
      {
        permission: "read",
        patterns: [
          ".gitignore",
          ".hidden/h.txt",
          "README.md",
          "src/a.ts",
          "src/b.js",
          "src/bin.dat",
          "src/deep/c.ts",
        ],
        title: "grep reads 7 files",
        prompt: false,
      },
    ]);
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

  it("is the engine it says it is", async () => {
    expect((await grep({ pattern: "TODO" })).details).toMatchObject({ engine });
  });

  it("shows context across files with -- between them, as ripgrep does", async () => {
    const result = await grep({ pattern: "TODO|match", output_mode: "content", context: 2 });
    expect(result.content.split("\n")).toEqual([
      ".hidden/h.txt:1:TODO hidden but not ignored",
      "--",
      "README.md:1:TODO write docs",
      "--",
      "src/a.ts-1-import x from 'y';",
      "src/a.ts-2-export function alpha() {}",
      "src/a.ts:3:const TODO = 1;",
      "--",
      "src/deep/c.ts-1-one",
      "src/deep/c.ts-2-two",
      "src/deep/c.ts:3:match here",
      "src/deep/c.ts-4-three",
      "src/deep/c.ts-5-four",
      "src/deep/c.ts-6-five",
      "src/deep/c.ts-7-six",
      "src/deep/c.ts:8:match again",
      "src/deep/c.ts-9-seven",
    ]);
  });

  it("treats binary files alike: a NUL in the first 8 KB makes a file binary; invalid UTF-8 does not", async () => {
    await writeFile(
      join(box.workspace, "late-nul.txt"),
      Buffer.concat([Buffer.from("NEEDLE early\n"), Buffer.alloc(9000, 120), Buffer.from("\n\0\n")]),
    );
    await writeFile(join(box.workspace, "early-nul.txt"), Buffer.from("NEEDLE\0\n"));
    await writeFile(join(box.workspace, "latin1.txt"), Buffer.from("NEEDLE caf\xe9\n", "latin1"));
    await writeFile(
      join(box.workspace, "noise.txt"),
      Buffer.concat([Buffer.from("NEEDLE\n"), Buffer.alloc(200, 0xff)]),
    );
    expect((await grep({ pattern: "NEEDLE" })).content).toBe(
      "Found 3 files\nlate-nul.txt\nlatin1.txt\nnoise.txt",
    );
    expect((await grep({ pattern: "NEEDLE", path: "latin1.txt", output_mode: "content" })).content).toBe(
      "latin1.txt:1:NEEDLE caf\uFFFD",
    );
  });
}
