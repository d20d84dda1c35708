import { spawn } from "node:child_process";
import { copyFile, mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./temp-dir.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

export interface Built {
  root: string;
  /** The package's `bin/agentry.js` (it runs `dist/cli/main.js`, as no `src/` lies beside it). */
  bin: string;
  remove: () => Promise<void>;
}

/**
 * `src/` compiled to JavaScript file by file (tsc with `bench/tsconfig.build.json`) in a temp folder
 * laid out as a published package: `dist/` with the `.md` prompts beside their modules, `bin/`,
 * `package.json` and a link to this checkout's `node_modules`.
 */
export async function buildDist(): Promise<Built> {
  return packaged("dist", async (root) => {
    const tsc = join(REPO, "node_modules/typescript/bin/tsc");
    // Type errors elsewhere in the tree (work in progress) still emit JavaScript; only a missing entry fails.
    await runTool([tsc, "-p", join(REPO, "bench/tsconfig.build.json"), "--outDir", join(root, "dist")]);
    for (const file of await markdownFiles()) {
      await place(file, join(root, "dist", relative(join(REPO, "src"), file)));
    }
  });
}

/**
 * The CLI bundled with rolldown (a dependency of vitest, so present in a dev checkout): `src/cli/main.ts`
 * and every package it imports in a few ESM chunks in `dist/cli/`, the prompts copied beside them
 * (`./x.md` and `./prompts/x.md` resolve against the chunk). Undefined when rolldown is not installed.
 */
export async function buildBundle(): Promise<Built | undefined> {
  const cli = join(REPO, "node_modules/rolldown/bin/cli.mjs");
  if (!(await exists(cli))) return undefined;
  return packaged("bundle", async (root) => {
    const out = join(root, "dist/cli");
    await runTool([cli, join(REPO, "src/cli/main.ts"), "--format", "esm", "--platform", "node", "-d", out]);
    for (const file of await markdownFiles()) {
      const inPrompts = basename(dirname(file)) === "prompts";
      await place(file, join(out, inPrompts ? "prompts" : "", basename(file)), true);
    }
  });
}

async function packaged(label: string, build: (root: string) => Promise<void>): Promise<Built> {
  const { dir, remove } = await tempDir(label);
  try {
    await build(dir);
    const entry = join(dir, "dist/cli/main.js");
    if (!(await exists(entry))) throw new Error(`${label} build produced no ${entry}`);
    await mkdir(join(dir, "bin"));
    await copyFile(join(REPO, "bin/agentry.js"), join(dir, "bin/agentry.js"));
    await copyFile(join(REPO, "package.json"), join(dir, "package.json"));
    await symlink(join(REPO, "node_modules"), join(dir, "node_modules"));
    return { root: dir, bin: join(dir, "bin/agentry.js"), remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

function runTool(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.once("error", reject);
    child.once("close", (code) => {
      // tsc exits 2 on type errors after emitting; the caller checks the entry file exists.
      if (code === 0 || code === 2) resolve();
      else reject(new Error(`${basename(args[0] ?? "")} exited with ${code}:\n${output.slice(0, 2000)}`));
    });
  });
}

/** Copies a prompt; with `flat`, two different prompts landing on one name is an error, not a silent overwrite. */
async function place(file: string, target: string, flat = false): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  if (flat && (await exists(target))) {
    const [a, b] = await Promise.all([readFile(file, "utf8"), readFile(target, "utf8")]);
    if (a !== b) throw new Error(`bundle: two prompts named ${basename(file)}`);
    return;
  }
  await writeFile(target, await readFile(file));
}

async function markdownFiles(): Promise<string[]> {
  const entries = await readdir(join(REPO, "src"), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md") && entry.name !== "README.md")
    .map((entry) => join(entry.parentPath, entry.name));
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
