// npm run build (and `prepack`, so `npm pack` / `npm publish` always ship a fresh build): writes dist/.
//   node scripts/build.ts [--out <dir>]
// - dist/cli/main.js and dist/cli/chunks/: the CLI bundled by rolldown with its dependencies, so
//   `agentry run` loads a few dozen files instead of ~385 modules (bin/agentry.js runs it when no
//   src/ lies beside it). Bundling the dependencies too is measured faster than importing them.
// - dist/index.js, dist/testing/index.js, dist/remote/index.js and dist/chunks/: the library, bundled with its dependencies
//   left as imports (a consumer's zod and AI SDK are the ones agentry uses), and a .d.ts per module.
// - dist/workflows/script-worker.js: the worker thread of workflow scripts, at its src/ path (the CLI
//   and the library both start it from there).
// - the .md prompts at their src/ paths (see moduleUrls), and the web view's page (src/ui/page/).
// The checkout itself never runs dist/: see docs/decisions/0004-bundled-package.md.
import { spawn } from "node:child_process";
import { copyFile, mkdir, readdir, rm } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build, type Plugin } from "rolldown";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SRC = join(ROOT, "src");

/**
 * Builds the whole of dist/ into `out` (default: this checkout's dist/), replacing what was there.
 * `declarations: false` leaves out the `.d.ts` files (tsc, most of the build's time): what the suite's
 * CLI runs need (test/support/cli-bin.ts).
 */
export async function buildPackage(
  out = join(ROOT, "dist"),
  options: { declarations?: boolean } = {},
): Promise<void> {
  await rm(out, { recursive: true, force: true });
  await Promise.all([
    buildCli(out),
    buildLibrary(out),
    copyPrompts(out),
    ...(options.declarations === false ? [] : [emitDeclarations(out)]),
  ]);
}

/** `src/cli/main.ts` → `cli/main.js`, its lazily loaded commands and the dependencies as `cli/chunks/`. */
async function buildCli(out: string): Promise<void> {
  await build({
    input: { "cli/main": join(SRC, "cli/main.ts") },
    platform: "node",
    // What placing modules one by one needs (runChunk): main.js may export more than main().
    preserveEntrySignatures: "allow-extension",
    // The workflow sandbox's engine loads its .wasm beside its own module: it stays in node_modules/.
    external: (id) => /^(quickjs-emscripten-core|@jitl\/quickjs-)/.test(id),
    plugins: [moduleUrls(), processGlobal(), zodEnglishOnly()],
    logLevel: "warn",
    output: {
      dir: out,
      format: "esm",
      chunkFileNames: "cli/chunks/[name]-[hash].js",
      // ASCII source (non-ASCII escaped, doc comments dropped) is read into a one-byte string: decoded
      // faster and kept in half the memory of a two-byte one. Licence comments stay.
      charset: "ascii",
      comments: { legal: true, annotation: false, jsdoc: false },
      // Modules are placed one by one: a dependency of the run chunk that main.js needs stays outside it.
      codeSplitting: {
        includeDependenciesRecursively: false,
        groups: [{ name: runChunk(), debugName: "run" }],
      },
    },
  });
}

interface ModuleGraph {
  getModuleInfo(
    id: string,
  ): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
}

/**
 * The chunk `agentry run` (and `chat`) loads: every module it imports statically that neither `agentry`
 * itself (main.ts and what it imports: `--help`) nor `tasks list` (a command with a speed goal) needs.
 * One chunk instead of ~35 small ones: Node resolves, reads and links each import, and the run path
 * had ~200 of them (~12 ms of each start). Other commands that share the run's modules load it too.
 */
function runChunk(): (id: string, graph: ModuleGraph) => string | null {
  let members: Set<string> | undefined;
  return (id, graph) => {
    members ??= runChunkMembers(graph);
    return members.has(id) ? "run" : null;
  };
}

function runChunkMembers(graph: ModuleGraph): Set<string> {
  const elsewhere = reachable(graph, [join(SRC, "cli/main.ts"), ...tasksModules(graph)]);
  const run = reachable(graph, [
    join(SRC, "cli/commands/run/run.ts"),
    join(SRC, "cli/commands/chat/chat.ts"),
  ]);
  return new Set([...run].filter((id) => !elsewhere.has(id)));
}

/**
 * What `agentry tasks` imports when it runs: the lazy imports of its command's own files (`tasks.ts`,
 * `tasks-store.ts` …). When they moved to tasks-store.ts unnoticed, the store landed in the run chunk
 * and `tasks list` loaded all of it; the check below makes such a move fail the build instead.
 */
function tasksModules(graph: ModuleGraph): string[] {
  const commands = join(SRC, "cli/commands") + sep;
  const files = [...reachable(graph, [join(SRC, "cli/commands/tasks/tasks-command.ts")])].filter((id) =>
    id.startsWith(commands),
  );
  const lazy = files.flatMap((id) => graph.getModuleInfo(id)?.dynamicallyImportedIds ?? []);
  if (!lazy.includes(join(SRC, "tasks/workspace/workspace-task-store.ts")))
    throw new Error(
      "build: agentry tasks no longer imports tasks/workspace/workspace-task-store.ts lazily from src/cli/commands/: update tasksModules() in scripts/build.ts",
    );
  return lazy;
}

/** The modules `roots` import statically, directly or not, the roots included. */
function reachable(graph: ModuleGraph, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/** `src/index.ts` → `index.js`, `src/testing/index.ts` → `testing/index.js`, shared code in `chunks/`. */
async function buildLibrary(out: string): Promise<void> {
  await build({
    input: {
      index: join(SRC, "index.ts"),
      "testing/index": join(SRC, "testing/index.ts"),
      "cli/index": join(SRC, "cli/index.ts"),
      "remote/index": join(SRC, "remote/index.ts"),
      "workflows/script-worker": join(SRC, "workflows/script-worker.ts"),
    },
    platform: "node",
    // Bare specifiers (`zod`, `@ai-sdk/openai`, `node:fs`) stay imports; our own modules are bundled.
    external: (id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0"),
    plugins: [moduleUrls()],
    logLevel: "warn",
    output: { dir: out, format: "esm", chunkFileNames: "chunks/[name]-[hash].js" },
  });
}

/**
 * Modules find their prompts with `new URL("./x.md", import.meta.url)` (and cli/main.ts the
 * package.json two folders up). Bundled, `import.meta.url` is the URL of whichever chunk the code
 * landed in. So each of our modules gets instead the URL it would have in a file-by-file build —
 * `src/subagents/tools/task.ts` → `dist/subagents/tools/task.js`, computed from its chunk's own URL —
 * and copyPrompts puts the prompts at the same paths: every relative path resolves as it does in src/.
 */
function moduleUrls(): Plugin {
  const ROOT_MARK = "__agentry_dist_root__/";
  return {
    name: "agentry-module-urls",
    transform: {
      filter: { id: /\.ts$/, code: "import.meta.url" },
      handler(code, id) {
        const path = relative(SRC, id);
        if (path.startsWith("..")) return null;
        const built = `${ROOT_MARK}${path.split(sep).join("/").replace(/\.ts$/, ".js")}`;
        const url = `new URL(${JSON.stringify(built)}, import.meta.url).href`;
        return { code: code.replaceAll(/\bimport\.meta\.url\b/g, url) };
      },
    },
    renderChunk(code, chunk) {
      if (!code.includes(ROOT_MARK)) return null;
      const up = "../".repeat(chunk.fileName.split("/").length - 1) || "./";
      return { code: code.replaceAll(ROOT_MARK, up) };
    },
  };
}

/**
 * `import process from "node:process"` (commander, the MCP SDK) and `require("process")` (yaml's
 * CommonJS build) become the global `process`. Importing the builtin makes Node build its ESM facade,
 * which reads every property of `process`, and computing `process.allowedNodeEnvironmentFlags` alone
 * took ~9 ms of each start. The module is CommonJS, so a `require` gets `process` itself: as an ES
 * module with a default export, yaml's `require` got `{ default: process }` and every YAML parse of the
 * bundled CLI failed reading `env.LOG_TOKENS` of undefined (found when the suite began running the
 * bundle: docs/decisions/0020-suite-runs-the-bundle.md).
 */
function processGlobal(): Plugin {
  const id = "\0agentry-process-global";
  return {
    name: "agentry-process-global",
    resolveId(source) {
      return source === "node:process" || source === "process" ? id : null;
    },
    load(source) {
      return source === id ? "module.exports = globalThis.process;\n" : null;
    },
  };
}

/**
 * zod's `locales` namespace (`z.locales.de()` …) lists its 60-odd translations of error messages, a
 * third of the run's code (336 KB). agentry never switches zod's language (English, which zod's schemas
 * import directly, is the only one used), so in the CLI's bundle the namespace holds English alone.
 */
function zodEnglishOnly(): Plugin {
  return {
    name: "agentry-zod-english-only",
    load: {
      filter: { id: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ },
      handler() {
        return 'export { default as en } from "./en.js";\n';
      },
    },
  };
}

/**
 * Every `.md` under src/ except the folders' READMEs (the prompts), every `.mjs` (scripts run as
 * they are, such as the sandbox's network bridge) and the files of the web view's page (`agentry ui`
 * serves them as they are), at the same path under `out`.
 */
async function copyPrompts(out: string): Promise<void> {
  const entries = await readdir(SRC, { withFileTypes: true, recursive: true });
  const page = join(SRC, "ui", "page");
  for (const entry of entries) {
    const asset =
      entry.name.endsWith(".mjs") ||
      (entry.name.endsWith(".md") && entry.name !== "README.md") ||
      entry.parentPath === page;
    if (!entry.isFile() || !asset) continue;
    const file = join(entry.parentPath, entry.name);
    const target = join(out, relative(SRC, file));
    await mkdir(dirname(target), { recursive: true });
    await copyFile(file, target);
  }
}

/** A `.d.ts` per module the library entries reach (tsconfig.build.json); a type error fails the build. */
async function emitDeclarations(out: string): Promise<void> {
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  const args = [tsc, "-p", join(ROOT, "tsconfig.build.json"), "--outDir", out];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (chunk: string) => {
    output += chunk;
  };
  child.stdout.setEncoding("utf8").on("data", collect);
  child.stderr.setEncoding("utf8").on("data", collect);
  const code = await new Promise<number | null>((done, fail) => {
    child.once("error", fail);
    child.once("close", done);
  });
  if (code !== 0) throw new Error(`tsc (declarations) exited with ${code}:\n${output.slice(0, 4000)}`);
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  const out = values.out === undefined ? join(ROOT, "dist") : resolve(values.out);
  const started = performance.now();
  await buildPackage(out);
  const ms = Math.round(performance.now() - started);
  process.stdout.write(`agentry: built ${relative(process.cwd(), out) || "."} in ${ms} ms\n`);
}
