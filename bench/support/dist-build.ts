import { spawn } from "node:child_process";
import { cp, mkdir, readFile, rename, symlink, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./temp-dir.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/** This checkout packed with `npm pack` and installed into a fresh project, in a temp folder. */
export interface Installed {
  /** The consumer project: `package.json` and `node_modules/` (agentry, its dependencies). */
  app: string;
  /** `<app>/node_modules/agentry-ai`: the tarball's contents. */
  packageDir: string;
  /** `<packageDir>/bin/agentry.js`, the package's `bin` (it runs `dist/cli/main.js`). */
  bin: string;
  /** Every path in the tarball, as `npm pack --json` lists them (`dist/cli/main.js`, …). */
  files: string[];
  remove: () => Promise<void>;
}

export interface InstallOptions {
  /** Runs on the copy of the checkout before `npm pack` (to plant files the package must not ship). */
  beforePack?: (checkout: string) => Promise<void>;
}

/**
 * What a user installs: the checkout copied (without `node_modules/`, `.git/`, `dist/`, `.agentry/`),
 * packed with `npm pack` — whose `prepack` runs `scripts/build.ts` in the copy — and the tarball
 * extracted to `<app>/node_modules/agentry-ai`. The dependencies the package declares are linked from
 * this checkout's `node_modules/` beside it, as npm would place them (no network), and only those, so
 * an import of an undeclared package fails as it would for a user. Nothing is written to the checkout.
 */
export async function installPacked(options: InstallOptions = {}): Promise<Installed> {
  const { dir, remove } = await tempDir("package");
  try {
    const checkout = join(dir, "checkout");
    const skip = new Set(
      ["node_modules", ".git", "dist", ".agentry", "coverage"].map((name) => join(REPO, name)),
    );
    await cp(REPO, checkout, { recursive: true, filter: (source) => !skip.has(source) });
    await symlink(join(REPO, "node_modules"), join(checkout, "node_modules"));
    await options.beforePack?.(checkout);

    const manifestBefore = await readFile(join(checkout, "package.json"), "utf8");
    const packed = await npm(["pack", "--json", "--pack-destination", dir], checkout);
    // npm's postpack puts back the package.json that prepack pointed at dist/ (scripts/package-exports.ts).
    if ((await readFile(join(checkout, "package.json"), "utf8")) !== manifestBefore)
      throw new Error("npm pack left the checkout's package.json changed: postpack did not restore it");
    const [report] = JSON.parse(packed.slice(packed.search(/^\[/m))) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    if (!report) throw new Error(`npm pack printed no report:\n${packed}`);

    const app = join(dir, "app");
    const modules = join(app, "node_modules");
    await mkdir(modules, { recursive: true });
    await writeFile(
      join(app, "package.json"),
      `${JSON.stringify({ name: "app", private: true, type: "module" })}\n`,
    );
    await run("tar", ["-xzf", join(dir, report.filename), "-C", modules], dir);
    const packageDir = join(modules, "agentry-ai");
    await rename(join(modules, "package"), packageDir);
    const manifest = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      await mkdir(dirname(join(modules, name)), { recursive: true });
      await symlink(join(REPO, "node_modules", name), join(modules, name));
    }
    return {
      app,
      packageDir,
      bin: join(packageDir, "bin/agentry.js"),
      files: report.files.map((file) => file.path),
      remove,
    };
  } catch (error) {
    await remove();
    throw error;
  }
}

/**
 * npm on this process's Node (first on PATH, so `node` in the package's scripts is the same one),
 * without the `npm_*` variables of an npm script this process may run under.
 */
function npm(args: string[], cwd: string): Promise<string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_")),
  );
  env.PATH = `${dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`;
  env.npm_config_update_notifier = "false";
  return run("npm", args, cwd, env);
}

function run(command: string, args: string[], cwd: string, env = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => {
      if (code === 0) resolve(stdout);
      else
        reject(
          new Error(`${basename(command)} ${args.join(" ")} exited with ${code}:\n${stderr.slice(-4000)}`),
        );
    });
  });
}
