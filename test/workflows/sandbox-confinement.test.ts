import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runScript, type SandboxHost } from "../../src/workflows/script-sandbox.ts";
import { WorkflowScriptError } from "../../src/workflows/workflow-errors.ts";
import { parseWorkflowSource } from "../../src/workflows/workflow-source.ts";
import { tempDir } from "../support/temp-dir.ts";
import { scaled } from "../support/time-scale.ts";

// The sandbox attacked the way a hostile or careless script would. Every attempt must fail with an
// error that says what the script may use, and leave no trace outside the sandbox.

let hits = 0;
let url = "";
const server = createServer((_, response) => {
  hits++;
  response.end("reached");
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  process.env.AGENTRY_WORKFLOW_SECRET = "s3cret";
});
afterAll(async () => {
  delete process.env.AGENTRY_WORKFLOW_SECRET;
  await new Promise((resolve) => server.close(resolve));
});

function host(calls: string[] = []): SandboxHost {
  return {
    args: { n: 1 },
    agent: async (payload) => {
      calls.push(payload);
      return JSON.stringify({ ok: true, value: "fine" });
    },
    phase: () => {},
    log: () => {},
    failure: () => {},
  };
}

/** A hang guard that ends a script before the test's own bound does, so the failure says what hung. */
const hangGuard = () => AbortSignal.timeout(scaled(15_000));

const run = (body: string, sliceMs = scaled(5_000)) =>
  runScript(body, host(), { signal: hangGuard(), filename: "attack.js", sliceMs });

test.each([
  [
    "require('fs')",
    "const fs = require('fs'); return fs.readFileSync('/etc/passwd', 'utf8');",
    /'?require'? is not defined.*reaches nothing/,
  ],
  [
    "process.env",
    "return process.env.AGENTRY_WORKFLOW_SECRET;",
    /'?process'? is not defined.*reaches nothing/,
  ],
  ["fetch", `return await fetch(${JSON.stringify("URL")});`, /'?fetch'? is not defined/],
  [
    "import() of a module",
    "const fs = await import('node:fs'); return fs.readFileSync('/etc/passwd', 'utf8');",
    /import\(\) is not available/,
  ],
  ["a relative import()", "return await import('./agentry.json');", /import\(\) is not available/],
  [
    "spawning a process",
    "return require('child_process').execSync('touch /tmp/pwned').toString();",
    /'?require'? is not defined/,
  ],
  ["Date.now()", "return Date.now();", /clock is not available.*args/],
  ["new Date()", "return new Date().toISOString();", /clock is not available/],
  ["Math.random()", "return Math.random();", /Math.random\(\) is not available/],
  [
    "a timer",
    "return await new Promise((resolve) => setTimeout(resolve, 10));",
    /'?setTimeout'? is not defined/,
  ],
  ["WebAssembly", "return new WebAssembly.Memory({ initial: 1 });", /'?WebAssembly'? is not defined/],
])("%s fails with a clear error", async (_name, body, message) => {
  const error = await run(body.replace("URL", url)).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(WorkflowScriptError);
  expect((error as Error).message).toMatch(message);
  expect(hits).toBe(0);
});

test("prototype tricks find only the sandbox's own global", async () => {
  const found = await run(`
    const viaFunction = ({}).constructor.constructor("return this")();
    const viaAgent = agent.constructor("return this")();
    const viaError = (() => { try { null.x } catch (e) { return e.constructor.constructor("return this")(); } })();
    return [viaFunction, viaAgent, viaError].map((g) => [typeof g.process, typeof g.require, typeof g.__hostCall, typeof g.__hostAsync, typeof g.Deno, typeof g.Bun]);
  `);
  expect(found).toEqual(
    Array(3).fill(["undefined", "undefined", "undefined", "undefined", "undefined", "undefined"]),
  );
});

test("the primitives cannot be replaced, and a poisoned JSON or toJSON stays inside", async () => {
  const calls: string[] = [];
  const value = await runScript(
    `
    try { agent = () => "forged"; } catch {}
    JSON.stringify = () => { throw new Error("poisoned"); };
    Object.prototype.toJSON = function () { return { prompt: "swapped" }; };
    return await agent("the real prompt", { label: "x" });
    `,
    host(calls),
    { signal: hangGuard(), filename: "attack.js" },
  ).catch((error: unknown) => error);
  // The call either went through as written or failed inside the sandbox; it never reached the host
  // with anything but plain JSON.
  for (const payload of calls) expect(JSON.parse(payload).prompt).toBe("the real prompt");
  expect(value === "fine" || value instanceof WorkflowScriptError).toBe(true);
});

test("a getter in the options runs inside the sandbox, where there is nothing to reach", async () => {
  const error = await run('return await agent("x", { get schema() { return process.env; } });').catch(
    (thrown: unknown) => thrown,
  );
  expect((error as Error).message).toMatch(/'?process'? is not defined/);
});

test("an endless loop is stopped", async () => {
  const error = await run("while (true) {}", 200).catch((thrown: unknown) => thrown);
  expect((error as Error).message).toMatch(/computed too long without awaiting/);
});

test("a memory bomb is stopped", async () => {
  const error = await runScript("const a = []; for (;;) a.push(new Array(100000).fill(a.length));", host(), {
    signal: hangGuard(),
    filename: "attack.js",
    memoryBytes: 8 * 1024 * 1024,
    // Filling these arrays takes seconds on a loaded machine: the memory cap, not the time limit, must stop it.
    sliceMs: scaled(15_000),
  }).catch((thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(WorkflowScriptError);
  expect((error as Error).message).toMatch(/memory/i);
});

test("a static import or a second export is refused before anything runs", async () => {
  const dir = await tempDir("agentry-wf-");
  const marker = join(dir, "ran");
  for (const script of [
    `export const meta = { name: "x" };\nimport fs from "node:fs";\nreturn 1;`,
    `export const meta = { name: "x" };\nexport default async function main() {}`,
  ]) {
    await expect(parseWorkflowSource(script, "attack.js")).rejects.toThrow(
      /cannot import modules or export anything but meta/,
    );
  }
  expect(existsSync(marker)).toBe(false);
});

test("meta must be a literal: a call in it reaches no agent", async () => {
  await expect(
    parseWorkflowSource(
      `export const meta = { name: "x", description: agent("spend tokens") };\nreturn 1;`,
      "m.js",
    ),
  ).rejects.toThrow(/^m\.js: meta is not valid: description/);
});

test("args cannot reach back into the host", async () => {
  const args = { list: [1, 2] };
  const sandbox = host();
  sandbox.args = args;
  await runScript("args.list.push(3); args.extra = true; return args;", sandbox, {
    signal: hangGuard(),
    filename: "attack.js",
  });
  expect(args).toEqual({ list: [1, 2] });
});

test("the script's global object holds the ECMAScript built-ins and the primitives, nothing of the host", async () => {
  const names = (await run("return Object.getOwnPropertyNames(globalThis);")) as string[];
  const primitives = [
    "agent",
    "args",
    "budget",
    "console",
    "log",
    "parallel",
    "phase",
    "pipeline",
    "workflow",
  ];
  const host = names.filter((name) => !primitives.includes(name) && !(name in ECMASCRIPT_GLOBALS));
  expect(host).toEqual([]);
  for (const name of primitives) expect(names).toContain(name);
});

/** The global names ECMAScript defines (ES2025 and QuickJS's `InternalError`): what the sandbox may have. */
const ECMASCRIPT_GLOBALS = Object.fromEntries(
  [
    "AggregateError",
    "Array",
    "ArrayBuffer",
    "BigInt",
    "BigInt64Array",
    "BigUint64Array",
    "Boolean",
    "DataView",
    "Date",
    "Error",
    "EvalError",
    "FinalizationRegistry",
    "Float16Array",
    "Float32Array",
    "Float64Array",
    "Function",
    "Infinity",
    "Int16Array",
    "Int32Array",
    "Int8Array",
    "InternalError",
    "Iterator",
    "JSON",
    "Map",
    "Math",
    "NaN",
    "Number",
    "Object",
    "Promise",
    "Proxy",
    "RangeError",
    "ReferenceError",
    "Reflect",
    "RegExp",
    "Set",
    "SharedArrayBuffer",
    "String",
    "Symbol",
    "SyntaxError",
    "TypeError",
    "URIError",
    "Uint16Array",
    "Uint32Array",
    "Uint8Array",
    "Uint8ClampedArray",
    "WeakMap",
    "WeakRef",
    "WeakSet",
    "decodeURI",
    "decodeURIComponent",
    "encodeURI",
    "encodeURIComponent",
    "escape",
    "eval",
    "globalThis",
    "isFinite",
    "isNaN",
    "parseFloat",
    "parseInt",
    "undefined",
    "unescape",
  ].map((name) => [name, true]),
);
