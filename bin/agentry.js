#!/usr/bin/env node
// Entry point. In a checkout the TypeScript sources run directly (Node >= 22.18 strips types); the
// published package has no src/ and runs the bundle that `npm run build` (and `prepack`) writes to
// dist/ (docs/decisions/0004-bundled-package.md).
import { existsSync, readFileSync } from "node:fs";
import module from "node:module";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  process.stderr.write(
    `agentry needs Node.js >= 22.18 (this is ${process.version}). Install a newer Node; in a checkout, \`./agentry\` and \`npx agentry\` use the Node of its devDependencies.\n`,
  );
  process.exit(1);
}

// `agentry --version` alone answers here, before any of the CLI loads: the answer is one field of
// package.json, and loading the CLI took longer than Node's own start (bench/startup.ts). Anything else
// after the flag (`--version --help`) goes to the CLI, which decides as it always has.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  process.stdout.write(`${typeof manifest.version === "string" ? manifest.version : "0.0.0"}\n`);
} else {
  // Caches compiled (and type-stripped) modules on disk: `--version` from the sources dropped from ~180
  // ms to ~90 ms, and the installed package's `run` reaches its first model request 40–140 ms sooner
  // (bench/startup.ts). NODE_DISABLE_COMPILE_CACHE=1 turns it off.
  module.enableCompileCache?.();

  const source = new URL("../src/cli/main.ts", import.meta.url);
  const bundle = new URL("../dist/cli/main.js", import.meta.url);
  const entry = existsSync(source) ? source : bundle;
  if (entry === bundle && !existsSync(bundle)) {
    process.stderr.write(
      "agentry: dist/cli/main.js is missing: run `npm run build` in the package folder.\n",
    );
    process.exit(1);
  }
  const { main } = await import(entry.href);
  process.exitCode = await main(args);
}
