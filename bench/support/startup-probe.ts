// Where `agentry run`'s start-up goes, in a fresh process:
//   node bench/support/startup-probe.ts <cli-dir-url> <ext>
// <cli-dir-url> is src/cli/ (ext "ts", type stripping) or a file-by-file compiled copy (ext "js"; not the
// bundle, which has no such layout). Runs without the compile cache. Imports,
// in order, what `run` loads before its first model request, timing each step; prints one JSON line.
// Each step's time includes the modules it is the first to load (resolution, stripping, evaluation).
import { registerHooks } from "node:module";

const bootMs = performance.now(); // process start → this line (Node's bootstrap plus this file)
const [cliDir, ext] = process.argv.slice(2);
if (cliDir === undefined || ext === undefined)
  throw new Error("usage: startup-probe.ts <cli-dir-url> <ts|js>");

const loaded = new Set<string>();
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url);
    return nextLoad(url, context);
  },
});
const isOwn = (url: string) => url.startsWith("file:") && !url.includes("/node_modules/");
const count = () => {
  const urls = [...loaded];
  const own = urls.filter(isOwn).length;
  return { own, packages: urls.filter((url) => url.includes("/node_modules/")).length };
};

const steps: Array<{ step: string; ms: number; ownModules: number; packageModules: number }> = [];
const step = async (name: string, load: () => Promise<unknown>) => {
  const before = count();
  const started = performance.now();
  await load();
  const after = count();
  steps.push({
    step: name,
    ms: performance.now() - started,
    ownModules: after.own - before.own,
    packageModules: after.packages - before.packages,
  });
};
const at = (path: string) => new URL(`${path}.${ext}`, cliDir).href;

await step("cli/main (what --version loads)", () => import(at("main")));
await step("commands/run and its imports", () => import(at("commands/run/run")));
await step("AI SDK providers (@ai-sdk/*)", () =>
  Promise.all([import("@ai-sdk/anthropic"), import("@ai-sdk/openai"), import("@ai-sdk/openai-compatible")]),
);
await step("model registry and adapters", () => import(at("../model/registry")));
process.stdout.write(`${JSON.stringify({ bootMs, steps })}\n`);
