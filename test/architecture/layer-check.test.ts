import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  ArchitectureTableError,
  checkArchitecture,
  MAX_LINES,
  parseArchitecture,
  staleFaces,
} from "../../scripts/architecture.ts";
import { tempDir } from "../support/temp-dir.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const ARCHITECTURE = await readFile(join(REPO, "ARCHITECTURE.md"), "utf8");

/** A tree with this repository's ARCHITECTURE.md and node_modules, and the given source files. */
async function tree(files: Record<string, string>, architecture = ARCHITECTURE): Promise<string> {
  const root = await tempDir("agentry-layers-");
  await writeFile(join(root, "ARCHITECTURE.md"), architecture);
  await symlink(join(REPO, "node_modules"), join(root, "node_modules"));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => `export const x${i} = ${i};`).join("\n");

describe("the layer check (ARCHITECTURE.md's tables)", () => {
  it("passes a tree that keeps the layers", async () => {
    const root = await tree({
      "src/agent/loop.ts": 'import { x } from "../tools/tool.ts";\nexport const y = x;\n',
      "src/tools/tool.ts": 'import { z } from "zod";\nexport const x = z.string();\n',
    });
    expect(await checkArchitecture(root)).toEqual([]);
  });

  it("fails on a planted import of a higher layer", async () => {
    const root = await tree({
      "src/tools/tool.ts":
        'import type { Session } from "../agent/session/session.ts";\nexport type S = Session;\n',
      "src/agent/session/session.ts": "export interface Session { id: string }\n",
    });
    expect(await checkArchitecture(root)).toEqual([
      expect.stringMatching(
        /^layer-tools: src\/tools\/tool\.ts → src\/agent\/session\/session\.ts\n.*src\/tools\/ may import only tools, sandbox/,
      ),
    ]);
  });

  it("fails on a planted deep import past a layer's public files, from another layer or from src/index.ts", async () => {
    const root = await tree({
      "src/agent/loop.ts":
        'import { matches } from "../tools/grep/grep-query.ts";\nexport const m = matches;\n',
      "src/index.ts": 'export { matches } from "./tools/grep/grep-query.ts";\n',
      "src/tools/grep/grep-query.ts": "export const matches = 1;\n",
      "src/tools/grep/grep.ts": 'import { matches } from "./grep-query.ts";\nexport const grep = matches;\n',
    });
    const problems = await checkArchitecture(root);
    expect(problems).toEqual([
      expect.stringMatching(
        /^face-tools: src\/agent\/loop\.ts → src\/tools\/grep\/grep-query\.ts\n.*Outside src\/tools\/, import only its public files: .*grep\/grep\.ts/,
      ),
      expect.stringMatching(/^face-tools: src\/index\.ts → src\/tools\/grep\/grep-query\.ts\n/),
    ]);
    // The same import of the public file passes: the rule is about the path, not the layer.
    const face = await tree({
      "src/agent/loop.ts": 'import { grep } from "../tools/grep/grep.ts";\nexport const g = grep;\n',
      "src/tools/grep/grep-query.ts": "export const matches = 1;\n",
      "src/tools/grep/grep.ts": 'import { matches } from "./grep-query.ts";\nexport const grep = matches;\n',
    });
    expect(await checkArchitecture(face)).toEqual([]);
  });

  it("fails on a cycle, even of type-only imports within one folder", async () => {
    const root = await tree({
      "src/text/a.ts": 'import type { B } from "./b.ts";\nexport interface A { b?: B }\n',
      "src/text/b.ts": 'import type { A } from "./a.ts";\nexport interface B { a?: A }\n',
    });
    expect(await checkArchitecture(root)).toEqual([
      expect.stringMatching(
        /^no-cycle: src\/text\/a\.ts → src\/text\/b\.ts \(cycle: src\/text\/b\.ts → src\/text\/a\.ts\)/,
      ),
    ]);
  });

  it("fails on a folder without a row, a package outside its layers, and an import that does not resolve", async () => {
    const root = await tree({
      "src/gadgets/thing.ts": "export const thing = 1;\n",
      "src/tools/cli-ish.ts": 'import { Command } from "commander";\nexport const c = new Command();\n',
      "src/tools/moved.ts": 'import { gone } from "./gone.ts";\nexport const m = gone;\n',
    });
    const problems = await checkArchitecture(root);
    expect(problems).toContainEqual(
      expect.stringMatching(/^layer-unlisted: src\/gadgets\/thing\.ts is in no layer/),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(
        /^package-commander-string-width: src\/tools\/cli-ish\.ts → \S*node_modules\/commander\//,
      ),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/^no-unresolvable: src\/tools\/moved\.ts → \.\/gone\.ts/),
    );
    expect(problems).toHaveLength(3);
  });

  it(`fails on a file past ${MAX_LINES} lines unless the long-files table says why, and on a stale row`, async () => {
    const long = { "src/text/long.ts": `${lines(MAX_LINES + 1)}\n` };
    expect(await checkArchitecture(await tree(long))).toEqual([
      `long-file: src/text/long.ts has ${MAX_LINES + 1} lines (limit ${MAX_LINES}); split it by responsibility, or say why not in ARCHITECTURE.md's long-files table`,
    ]);
    const header = "| file | why it stays whole |\n| --- | --- |\n";
    const excused = ARCHITECTURE.replace(header, `${header}| \`src/text/long.ts\` | a generated table |\n`);
    expect(excused).not.toBe(ARCHITECTURE);
    expect(await checkArchitecture(await tree(long, excused))).toEqual([]);
    const stale = await tree({ "src/text/long.ts": `${lines(MAX_LINES)}\n` }, excused);
    expect(await checkArchitecture(stale)).toEqual([
      `long-file: src/text/long.ts has a row in the long-files table but is not over ${MAX_LINES} lines; remove the row`,
    ]);
  });

  it("fails on the long error-message form anywhere in src/ but the helper, naming the file and line", async () => {
    const root = await tree({
      "src/text/error-message.ts":
        "export function errorMessage(error: unknown): string {\n  return error instanceof Error ? error.message : String(error);\n}\n",
      "src/tools/tool.ts":
        "export function describe(e: unknown): string {\n  const what = 'a tool';\n  return what + (e instanceof Error ? e.message : String(e));\n}\n",
      "src/agent/loop.ts":
        'import { describe } from "../tools/tool.ts";\nexport const say = (failure: { cause: unknown }) =>\n  describe(failure.cause instanceof Error\n    ? failure.cause.message\n    : String(failure.cause));\n',
    });
    expect(await checkArchitecture(root)).toEqual([
      "error-message: src/agent/loop.ts:3 spells out `failure.cause instanceof Error ? failure.cause.message : String(failure.cause)`; use errorMessage(failure.cause) from src/text/error-message.ts",
      "error-message: src/tools/tool.ts:3 spells out `e instanceof Error ? e.message : String(e)`; use errorMessage(e) from src/text/error-message.ts",
    ]);
  });

  it("refuses a layer table it cannot read instead of checking less", () => {
    const typo = ARCHITECTURE.replace("| `src/permissions/` | rules", "| `src/permisions` | rules");
    expect(() => parseArchitecture(typo)).toThrow(ArchitectureTableError);
    const unknownTarget = ARCHITECTURE.replace("| `errors` `text` |", "| `errors` `txt` |");
    expect(() => parseArchitecture(unknownTarget)).toThrow(/may import "txt", which has no row/);
    expect(() => parseArchitecture("# no tables\n")).toThrow(/no layer table/);
    const faceRow = /^\| `src\/shell\/` \| (`[a-z-]+\.ts` ?)+ \|$/m;
    expect(ARCHITECTURE).toMatch(faceRow);
    expect(() => parseArchitecture(ARCHITECTURE.replace(faceRow, ""))).toThrow(/shell has no row/);
    const outside = ARCHITECTURE.replace(faceRow, "| `src/shell/` | `../tools/tool.ts` |");
    expect(() => parseArchitecture(outside)).toThrow(/not a source file's path inside src\/shell\//);
  });

  it("holds for this repository", async () => {
    expect(await checkArchitecture(REPO)).toEqual([]);
    expect(await staleFaces(REPO, parseArchitecture(ARCHITECTURE))).toEqual([]);
  });
});
