// The package's "exports" and "engines" in a checkout and in the tarball
// (docs/decisions/0004-bundled-package.md, docs/install.md).
//   node scripts/package-exports.ts pack      (npm's prepack, after the build)
//   node scripts/package-exports.ts restore   (npm's postpack)
// In the checkout, package.json sends every export to a TypeScript source, so a script in the checkout
// that imports the package by its name runs the sources with no build and no flag (Node strips types
// outside node_modules/). A tarball holds no sources, and Node strips no types under node_modules/:
// while npm packs, each `./src/<path>.ts` export becomes `types` → `./dist/<path>.d.ts` and `default`
// → `./dist/<path>.js`, the tarball gets its `engines`, and afterwards the checkout's package.json is
// put back byte for byte.
import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
/** The checkout's package.json while npm packs; never in the tarball (`files` lists what ships). */
const SAVED = "package.json.checkout";

type ExportTarget = string | { types: string; default: string };

/**
 * The Node an installed package needs (bin/agentry.js refuses an older one). Only the tarball says it:
 * npm checks `engines` against the Node npm itself runs on, and in a checkout that is the system's
 * (say 20) while agentry runs on the Node of the devDependencies, so a checkout's `engines` only made
 * `npm install` and the first `npx agentry` warn about agentry itself. The checkout states what it
 * needs of the system's Node in `devEngines` instead.
 */
export const PACKAGE_ENGINES = { node: ">=22.18" } as const;

/** The exports of the tarball: each source entry point replaced by its built file and declarations. */
export function packedExports(exports: Record<string, string>): Record<string, ExportTarget> {
  const packed: Record<string, ExportTarget> = {};
  for (const [subpath, target] of Object.entries(exports)) {
    const source = /^\.\/src\/(.+)\.ts$/.exec(target);
    packed[subpath] = source
      ? { types: `./dist/${source[1]}.d.ts`, default: `./dist/${source[1]}.js` }
      : target;
  }
  return packed;
}

/** prepack: saves the checkout's package.json and writes the tarball's in its place. */
export async function pack(root = ROOT): Promise<void> {
  const saved = join(root, SAVED);
  if (existsSync(saved)) {
    throw new Error(
      `${saved} exists: an earlier npm pack did not finish. Put the checkout's package.json back with \`node scripts/package-exports.ts restore\`, then pack again.`,
    );
  }
  const text = await readFile(join(root, "package.json"), "utf8");
  const manifest = JSON.parse(text) as { exports?: unknown };
  const exports = manifest.exports;
  const isSourceMap =
    typeof exports === "object" &&
    exports !== null &&
    Object.values(exports).every((target) => typeof target === "string");
  if (!isSourceMap) {
    throw new Error(
      'package.json "exports" must map each subpath to one file (a ./src/….ts source, or a file that ships as is).',
    );
  }
  await writeFile(saved, text);
  const packed = {
    ...manifest,
    engines: PACKAGE_ENGINES,
    exports: packedExports(exports as Record<string, string>),
  };
  await writeFile(join(root, "package.json"), `${JSON.stringify(packed, null, 2)}\n`);
}

/** postpack: puts the checkout's package.json back. */
export async function restore(root = ROOT): Promise<void> {
  const saved = join(root, SAVED);
  if (existsSync(saved)) await rename(saved, join(root, "package.json"));
}

if (import.meta.main) {
  const command = process.argv[2];
  if (command === "pack") await pack();
  else if (command === "restore") await restore();
  else throw new Error(`usage: node scripts/package-exports.ts pack|restore (got ${command ?? "nothing"})`);
}
