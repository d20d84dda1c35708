import { mkdir, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { GLOB_MAX_RESULTS, globTool } from "../../../src/tools/glob/glob.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tool-context.ts";

let box: Sandbox;
const put = async (name: string, ageSeconds = 0) => {
  const path = join(box.workspace, name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, "x");
  const time = new Date(Date.now() - ageSeconds * 1000);
  await utimes(path, time, time);
};
beforeEach(async () => {
  box = await makeSandbox();
  await put("src/old.ts", 300);
  await put("src/new.ts", 10);
  await put("src/lib/mid.tsx", 100);
  await put("top.ts", 200);
  await put("node_modules/p/i.ts");
  await put(".git/x.ts");
  await put("build/gen.ts");
  await put(".gitignore");
  await writeFile(join(box.workspace, ".gitignore"), "build\n");
});

const glob = (args: Record<string, unknown>) => runTool(globTool, args, makeContext(box.workspace).ctx);

describe("glob", () => {
  it("matches at any depth with **, newest first, skipping ignored directories", async () => {
    const { ctx, asks } = makeContext(box.workspace);
    const result = await runTool(globTool, { pattern: "**/*.ts" }, ctx);
    expect(result.content).toBe("src/new.ts\ntop.ts\nsrc/old.ts");
    expect(asks).toEqual([{ permission: "read", patterns: ["."], title: "glob **/*.ts in ." }]);
  });

  it("matches only the top level with a slash-free pattern, and supports braces", async () => {
    expect((await glob({ pattern: "*.ts" })).content).toBe("top.ts");
    expect((await glob({ pattern: "src/**/*.{ts,tsx}" })).content).toBe(
      "src/new.ts\nsrc/lib/mid.tsx\nsrc/old.ts",
    );
  });

  it("searches relative to path and prints paths relative to the workspace", async () => {
    expect((await glob({ pattern: "*.tsx", path: "src/lib" })).content).toBe("src/lib/mid.tsx");
  });

  it("accepts an absolute pattern inside the search directory and refuses one outside", async () => {
    expect((await glob({ pattern: join(box.workspace, "src", "*.ts") })).content).toBe(
      "src/new.ts\nsrc/old.ts",
    );
    await expect(glob({ pattern: "/etc/*", path: "." })).rejects.toThrow(/absolute path outside/);
  });

  it("says when nothing matches, and refuses a file or missing path", async () => {
    expect((await glob({ pattern: "**/*.rs" })).content).toBe('No files match "**/*.rs" in the workspace.');
    await expect(glob({ pattern: "*", path: "top.ts" })).rejects.toThrow(
      "top.ts is a file; glob searches a directory.",
    );
    await expect(glob({ pattern: "*", path: "nope" })).rejects.toThrow("nope does not exist.");
  });

  it(`caps results at ${GLOB_MAX_RESULTS} with a note`, async () => {
    const dir = join(box.workspace, "many");
    await mkdir(dir);
    await Promise.all(
      Array.from({ length: GLOB_MAX_RESULTS + 5 }, (_, i) => writeFile(join(dir, `f${i}.txt`), "")),
    );
    const result = await glob({ pattern: "many/*.txt" });
    const lines = result.content.split("\n");
    expect(lines.filter((line) => line.startsWith("many/"))).toHaveLength(GLOB_MAX_RESULTS);
    expect(lines.at(-1)).toBe(
      `(Showing the ${GLOB_MAX_RESULTS} most recently modified of ${GLOB_MAX_RESULTS + 5} matches; use a more specific pattern or path to see the others.)`,
    );
  });
});
