// Preloaded (`node --import <this file's URL> …`) into a process whose loaded modules a benchmark
// wants: every module it resolves (ES modules and CommonJS alike) is written at exit to the file
// AGENTRY_BENCH_MODULES_FILE names (appended), one URL a line.
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const file = process.env.AGENTRY_BENCH_MODULES_FILE;
if (file) {
  const seen = new Set();
  registerHooks({
    resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      seen.add(resolved.url);
      return resolved;
    },
  });
  // Appended: a launcher that starts agentry in a child process writes its own few lines too.
  process.on("exit", () => appendFileSync(file, `${[...seen].join("\n")}\n`));
}
