// The package as npm ships it: `npm pack` of a copy of this checkout (its `prepack` builds dist/),
// extracted into a fresh project's node_modules/ with only the declared dependencies beside it.
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Installed, installPacked } from "../../bench/support/dist-build.ts";
import { finished, makeWorkspace, type TestWorkspace } from "../cli/support/cli-process.ts";
import { bodyText, providerEnv } from "../cli/support/provider-env.ts";
import { startModelServer } from "../support/model-server.ts";
import { scaled } from "../support/time-scale.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
/** Planted in the checkout copy before packing: none of it may reach the tarball. */
const SECRET = "sk-ant-planted-0123456789-must-not-ship";

let installed: Installed;
let ws: TestWorkspace | undefined;
beforeAll(async () => {
  installed = await installPacked({
    async beforePack(checkout) {
      await writeFile(join(checkout, ".env"), `ANTHROPIC_API_KEY=${SECRET}\n`);
      await mkdir(join(checkout, ".agentry/sessions"), { recursive: true });
      await writeFile(join(checkout, ".agentry/config.json"), JSON.stringify({ apiKey: SECRET }));
      await writeFile(join(checkout, ".agentry/sessions/s.jsonl"), `{"secret":"${SECRET}"}\n`);
    },
  });
}, scaled(180_000));
afterAll(async () => {
  await installed?.remove();
});

function node(args: string[], cwd: string, env: Record<string, string>) {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  return finished(child);
}

/** A line of a prompt file as it appears inside a JSON request body. */
async function promptLine(path: string, index = 0): Promise<string> {
  const lines = (await readFile(join(REPO, "src", path), "utf8")).split("\n").filter((l) => l.trim() !== "");
  const line = lines[index];
  if (line === undefined) throw new Error(`${path} has no line ${index}`);
  return JSON.stringify(line.trim()).slice(1, -1);
}

describe("the packed package", () => {
  it("ships bin/, dist/ (JavaScript, declarations, prompts) and docs/, and nothing else of the checkout", async () => {
    const { files } = installed;
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "LICENSE",
        "bin/agentry.js",
        "dist/cli/main.js",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/testing/index.js",
        "dist/testing/index.d.ts",
        "dist/cli/index.js",
        "dist/cli/index.d.ts",
        "dist/remote/index.js",
        "dist/remote/index.d.ts",
        "dist/agent/system-prompt.md",
        "dist/tools/read/read.md",
        "dist/agents/prompts/explore.md",
        "dist/tools/bash/bash-sandbox.md",
        "dist/sandbox/network-bridge-main.mjs",
        "dist/sandbox/network-launcher-main.mjs",
        "dist/ui/page/index.html",
        "dist/ui/page/app.js",
        "dist/ui/page/style.css",
        "docs/exit-codes.md",
      ]),
    );
    const outside = files.filter(
      (path) => !/^(bin|dist|docs)\//.test(path) && !["package.json", "README.md", "LICENSE"].includes(path),
    );
    expect(outside).toEqual([]);
    // Node refuses to strip types under node_modules/: no TypeScript source may be needed at run time.
    expect(files.filter((path) => path.endsWith(".ts") && !path.endsWith(".d.ts"))).toEqual([]);

    const shipped = await readdir(installed.packageDir, { recursive: true, withFileTypes: true });
    const withSecret: string[] = [];
    for (const entry of shipped.filter((e) => e.isFile())) {
      const path = join(entry.parentPath, entry.name);
      if ((await readFile(path, "utf8")).includes(SECRET)) withSecret.push(path);
    }
    expect(withSecret).toEqual([]);
  });

  it("points its exports at dist/, where the checkout's point at src/, and says the Node it needs", async () => {
    const manifest = JSON.parse(await readFile(join(installed.packageDir, "package.json"), "utf8")) as {
      exports: Record<string, unknown>;
      engines?: Record<string, string>;
    };
    // The checkout has no `engines` (npm would check it against the system's Node): the tarball does.
    expect(manifest.engines).toEqual({ node: ">=22.18" });
    expect(manifest.exports).toEqual({
      ".": { types: "./dist/index.d.ts", default: "./dist/index.js" },
      "./testing": { types: "./dist/testing/index.d.ts", default: "./dist/testing/index.js" },
      "./cli": { types: "./dist/cli/index.d.ts", default: "./dist/cli/index.js" },
      "./remote": { types: "./dist/remote/index.d.ts", default: "./dist/remote/index.js" },
      "./package.json": "./package.json",
    });
  });

  it("`agentry --version` prints the package's version", async () => {
    const { version } = JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as { version: string };
    const result = await node([installed.bin, "--version"], installed.app, {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: installed.app,
    });
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe(version);
  });

  it("`agentry ui` serves its page from dist/ui/page/, as it is in src/", async () => {
    ws = await makeWorkspace({});
    const token = "packed-package-ui-token-0123";
    const child = spawn(process.execPath, [installed.bin, "ui", "--port", "0"], {
      cwd: ws.dir,
      env: { ...ws.env, AGENTRY_UI_TOKEN: token },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
          out += chunk;
          const line = /^(http:\/\/\S+)\/\?token=/m.exec(out);
          if (line?.[1]) resolve(line[1]);
        });
        child.once("exit", (code) =>
          reject(new Error(`agentry ui exited (${code}) before printing its address`)),
        );
      });
      const auth = { authorization: `Bearer ${token}` };
      for (const file of ["index.html", "app.js", "style.css"]) {
        const served = await fetch(`${address}/${file === "index.html" ? "" : file}`, { headers: auth });
        expect(served.status).toBe(200);
        expect(await served.text()).toBe(await readFile(join(REPO, "src/ui/page", file), "utf8"));
      }
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("`agentry run` answers through the bundle, with a subagent, reading its prompts from dist/", async () => {
    ws = await makeWorkspace({ "notes.txt": "The packed package works.\n" });
    const server = await startModelServer([
      {
        toolCalls: [
          { name: "task", args: { description: "read notes", prompt: "What does notes.txt say?" } },
        ],
      },
      { toolCalls: [{ name: "read", args: { path: "notes.txt" } }] },
      { text: "notes.txt says: The packed package works." },
      { text: "The child reports that the packed package works." },
    ]);
    try {
      const result = await node(
        [installed.bin, "run", "--permission-mode", "bypass", "Delegate reading notes.txt."],
        ws.dir,
        { ...ws.env, ...providerEnv(server, "anthropic") },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain("[main/general-purpose-1] completed");
      expect(result.stdout).toContain("The child reports that the packed package works.");
      expect(server.requests).toHaveLength(4);
      // The root's system prompt and tool descriptions, and the child's preamble and agent prompt,
      // are the .md files of src/, found by the bundled code at their dist/ paths.
      const root = bodyText(server, 0);
      expect(root).toContain(await promptLine("agent/system-prompt.md"));
      expect(root).toContain(await promptLine("tools/read/read.md"));
      expect(root).toContain(await promptLine("subagents/tools/task.md"));
      const child = bodyText(server, 1);
      expect(child).toContain(await promptLine("subagents/child/child-preamble.md"));
      expect(child).toContain(await promptLine("agents/prompts/general-purpose.md"));
      expect(bodyText(server, 3)).toContain("The packed package works.");
    } finally {
      await server.close();
    }
  });

  it("the CLI's bundle uses the global process: Node never builds node:process's module facade", async () => {
    await writeFile(
      join(installed.app, "builtins.mjs"),
      `import { registerHooks } from "node:module";
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
process.on("exit", () => process.stderr.write(JSON.stringify(loaded)));
`,
    );
    const result = await node(["--import", "./builtins.mjs", installed.bin, "--help"], installed.app, {
      PATH: process.env.PATH ?? "",
    });
    expect(result.code).toBe(0);
    const loaded = JSON.parse(result.stderr) as string[];
    expect(loaded.some((url) => url.includes("/dist/cli/main.js"))).toBe(true);
    expect(loaded.filter((url) => url === "node:process" || url === "process")).toEqual([]);
  });

  it("the CLI's bundle reads YAML (an agent file's frontmatter) through yaml's CommonJS build and the global process", async () => {
    ws = await makeWorkspace({
      ".agentry/agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews one diff\n---\nYou review.\n",
    });
    const result = await node([installed.bin, "agents", "check"], ws.dir, ws.env);
    expect(result.stdout + result.stderr).not.toContain("LOG_TOKENS");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const listed = await node([installed.bin, "agents", "list"], ws.dir, ws.env);
    expect(listed.stdout).toMatch(/^reviewer\s+Reviews one diff/m);
  });

  it("the CLI's bundle keeps zod's English messages (the only language it carries)", async () => {
    ws = await makeWorkspace({ "agentry.json": JSON.stringify({ subagents: { maxDepth: -3 } }) });
    const result = await node([installed.bin, "run", "hi"], ws.dir, { ...ws.env, ANTHROPIC_API_KEY: "k" });
    expect(result.code).toBe(2);
    // zod's own wording, from its English locale.
    expect(result.stderr).toContain('"subagents.maxDepth" Too small: expected number to be >=0 (got -3)');
  });

  it("`agentry workflow run` runs a script through the bundle: its sandbox (QuickJS wasm) and prelude load from the package", async () => {
    ws = await makeWorkspace({
      "count.js":
        'export const meta = { name: "count" };\nreturn await agent("Count", { schema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } });\n',
    });
    const server = await startModelServer([{ text: '{"n": 3}' }]);
    try {
      const result = await node(
        [installed.bin, "workflow", "run", "count.js", "--permission-mode", "bypass"],
        ws.dir,
        { ...ws.env, ...providerEnv(server, "anthropic") },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ n: 3 });
      expect(bodyText(server, 0)).toContain(await promptLine("workflows/structured-output.md"));
    } finally {
      await server.close();
    }
  });

  it("`import('agentry-ai')` loads no module of the CLI and not commander; `agentry-ai/cli` does", async () => {
    await writeFile(
      join(installed.app, "loaded.mjs"),
      `import { registerHooks } from "node:module";
const loaded = [];
registerHooks({ resolve(specifier, context, next) { const found = next(specifier, context); loaded.push(found.url); return found; } });
await import(process.argv[2]);
console.log(JSON.stringify(loaded));
`,
    );
    const loadedBy = async (specifier: string) => {
      const result = await node(["loaded.mjs", specifier], installed.app, { PATH: process.env.PATH ?? "" });
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as string[];
    };
    const library = await loadedBy("agentry-ai");
    expect(library.some((url) => url.includes("/agentry-ai/dist/index.js"))).toBe(true);
    expect(library.filter((url) => url.includes("/dist/cli/") || url.includes("commander"))).toEqual([]);
    expect(library.filter((url) => url.includes("@a2a-js"))).toEqual([]);
    const cli = await loadedBy("agentry-ai/cli");
    expect(cli.some((url) => url.includes("commander"))).toBe(true);
    const remote = await loadedBy("agentry-ai/remote");
    expect(remote.some((url) => url.includes("@a2a-js/sdk"))).toBe(true);
  });

  it("exports the same library API as the sources", async () => {
    const packed = (await import(pathToFileURL(join(installed.packageDir, "dist/index.js")).href)) as object;
    const sources = (await import("../../src/index.ts")) as object;
    expect(Object.keys(packed).sort()).toEqual(Object.keys(sources).sort());
    const testing = (await import(
      pathToFileURL(join(installed.packageDir, "dist/testing/index.js")).href
    )) as object;
    expect(Object.keys(testing)).toEqual(["scriptedModel"]);
    const remote = (await import(
      pathToFileURL(join(installed.packageDir, "dist/remote/index.js")).href
    )) as object;
    expect(Object.keys(remote)).toEqual(["a2aPlacement"]);
  });

  it("runs a consumer's agent by the package name, and its declarations type-check that consumer", async () => {
    // A consumer has @types/node; TypeScript is this checkout's.
    await mkdir(join(installed.app, "node_modules/@types"), { recursive: true });
    await symlink(join(REPO, "node_modules/@types/node"), join(installed.app, "node_modules/@types/node"));
    await writeFile(join(installed.app, "todo.txt"), "TODO: ship it\n");
    await writeFile(
      join(installed.app, "consumer.ts"),
      `import { builtinTools, nodeOperations, runAgent, Session, userText } from "agentry-ai";
import { scriptedModel } from "agentry-ai/testing";

// @ts-expect-error The declarations give runAgent its real type, not any.
export const wrong: number = runAgent;

const workspace = process.cwd();
const model = scriptedModel([
  { toolCalls: [{ name: "read", args: { path: "todo.txt" } }] },
  { text: "One TODO." },
]);
const session = await Session.create({ workspace, agentName: "main", model: model.id, persist: false });
await session.append(userText("List the TODOs"));
const run = runAgent(
  { name: "main", model, systemPrompt: "Be brief.", tools: builtinTools(), workspace, ops: nodeOperations },
  session,
);
for await (const _event of run) {
  // drain
}
const outcome = await run.outcome;
const sawFile = JSON.stringify(model.requests[1]?.messages).includes("TODO: ship it");
console.log(JSON.stringify({ status: outcome.status, text: outcome.text, sawFile }));
`,
    );
    await writeFile(
      join(installed.app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2023",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2023"],
          types: ["node"],
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: false,
          noEmit: true,
        },
        files: ["consumer.ts"],
      }),
    );
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: installed.app };

    const ran = await node(["consumer.ts"], installed.app, env);
    expect(ran.stderr).toBe("");
    expect(JSON.parse(ran.stdout)).toEqual({ status: "completed", text: "One TODO.", sawFile: true });

    const tsc = await node([join(REPO, "node_modules/typescript/bin/tsc"), "-p", "."], installed.app, env);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.code).toBe(0);
  });
});
