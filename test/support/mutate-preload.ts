import { globSync } from "node:fs";
import { matchesGlob, resolve } from "node:path";
import { pathToFileURL } from "node:url";

// `npm run mutate` only (vitest.stryker.config.ts): loads the files being mutated before any test of a
// file runs. src/ loads stores, providers and MCP lazily, so without it a module is first evaluated
// inside whichever test opens a store first; Stryker then takes the module's top level (a table of
// allowed status changes, a list of secret paths) for code that test alone covers, runs only that test
// against its mutants, and reports them as survivors the rest of the tests would kill. Loaded here,
// outside any test, that code counts as static: its mutants are switched on as the module loads and
// run against every test of the target.

const patterns = (process.env.AGENTRY_MUTATE_FILES ?? "").split(",").filter((glob) => glob !== "");
const excluded = patterns.filter((glob) => glob.startsWith("!")).map((glob) => glob.slice(1));
const files = globSync(patterns.filter((glob) => !glob.startsWith("!")))
  .filter((file) => !excluded.some((glob) => matchesGlob(file, glob)))
  .sort();
for (const file of files) await import(pathToFileURL(resolve(file)).href);
