import { stripTypeScriptTypes } from "node:module";
import { z } from "zod";
import { errorMessage } from "../text/error-message.ts";
import { runScript } from "./script-sandbox.ts";
import { WorkflowScriptError } from "./workflow-errors.ts";

/** A phase as `meta` declares it: Claude Code's `{title, detail}`, or a plain title. */
const phaseSchema = z.union([
  z
    .string()
    .min(1)
    .transform((title) => ({ title })),
  z.object({ title: z.string().min(1), detail: z.string().optional() }),
]);

/** The literal `meta` every script begins with (other keys are kept, not used). */
const metaSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().default(""),
  phases: z.array(phaseSchema).default([]),
});

export type WorkflowMeta = z.output<typeof metaSchema>;

/** A script ready to run: what it declares, and the body the sandbox runs. */
export interface WorkflowSource {
  meta: WorkflowMeta;
  /** The script without types, its `export const meta` a plain `const meta`. */
  body: string;
  /** Where it came from, for errors and stack traces (a path, or `inline`). */
  origin: string;
  /** The script as written (kept with a run, so `--resume` can read it again). */
  text: string;
}

const META = /^export\s+const\s+meta\s*=/m;

/**
 * Reads a workflow script — JavaScript, or TypeScript (`typescript: true`, types stripped) — as
 * Claude Code writes it: `export const meta = {...}` (a literal: `name`, `description`, `phases`),
 * then top-level code with `await` and `return`. The literal is evaluated in the sandbox with
 * nothing to call, so reading a script runs none of it.
 */
export async function parseWorkflowSource(
  text: string,
  origin: string,
  options: { typescript?: boolean } = {},
): Promise<WorkflowSource> {
  const source = options.typescript ? stripTypes(text, origin) : text;
  const match = META.exec(source);
  if (!match) {
    throw new WorkflowScriptError(
      `${origin}: a workflow script must begin with \`export const meta = { name, description, phases }\`.`,
    );
  }
  const start = match.index + match[0].length;
  const literal = objectLiteralAt(source, start, origin);
  const rest = source.slice(0, match.index) + source.slice(start).replace(literal, "");
  const imported = /^\s*(import\s[^(]|export\s)/m.exec(rest);
  if (imported) {
    const line = source.slice(0, source.indexOf(imported[0].trim())).split("\n").length;
    throw new WorkflowScriptError(
      `${origin}:${line}: a workflow script cannot import modules or export anything but meta; it reaches only agent(), parallel(), pipeline(), phase(), log() and args.`,
    );
  }
  const meta = await evaluateMeta(literal, origin);
  // `const meta` keeps the script's own references to it working, on the same line as before.
  const body = source.slice(0, match.index) + source.slice(match.index).replace(META, "const meta =");
  return { meta, body, origin, text };
}

/**
 * Metas are read one after another: each takes a few milliseconds in the sandbox's thread kept between
 * scripts, where reading many at once (`agentry workflow list`) would start a thread for each.
 */
let metaLane: Promise<unknown> = Promise.resolve();

async function evaluateMeta(literal: string, origin: string): Promise<WorkflowMeta> {
  const unusable = (why: string) => new WorkflowScriptError(`${origin}: meta ${why}`);
  let value: unknown;
  try {
    const read = metaLane.then(() =>
      runScript(`return (${literal});`, noPrimitives, {
        signal: AbortSignal.timeout(5_000),
        filename: `${origin} (meta)`,
        sliceMs: 1_000,
      }),
    );
    metaLane = read.catch(() => {});
    value = await read;
  } catch (error) {
    throw unusable(`must be a literal object: ${errorMessage(error)}`);
  }
  const parsed = metaSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "meta"}: ${issue.message}`,
    );
    throw unusable(`is not valid: ${problems.join("; ")}`);
  }
  return parsed.data;
}

/** Reading `meta` may call nothing: it must be a literal. */
const noPrimitives = {
  args: null,
  agent: () => Promise.resolve(JSON.stringify({ ok: false, error: "meta must be a literal", stopped: true })),
  phase: () => {},
  log: () => {},
  failure: () => {},
};

/**
 * Node's type stripping parses a module, where a top-level `return` is not allowed: the script is
 * stripped inside a function (with `export` blanked), then unwrapped. Stripping keeps every offset, so
 * `export` goes back where it was and line numbers stay the script's own.
 */
function stripTypes(text: string, origin: string): string {
  const meta = META.exec(text);
  const blanked =
    meta === null ? text : `${text.slice(0, meta.index)}      ${text.slice(meta.index + "export".length)}`;
  const prefix = "async function workflow() {";
  const suffix = "\n}";
  let stripped: string;
  try {
    stripped = withoutExperimentalWarning(() =>
      stripTypeScriptTypes(`${prefix}${blanked}${suffix}`, { mode: "strip" }),
    );
  } catch (error) {
    throw new WorkflowScriptError(
      `${origin}: cannot read it as TypeScript (only erasable types are supported): ${errorMessage(error)}`,
    );
  }
  const body = stripped.slice(prefix.length, stripped.length - suffix.length);
  return meta === null
    ? body
    : `${body.slice(0, meta.index)}export${body.slice(meta.index + "export".length)}`;
}

/**
 * Node marks `stripTypeScriptTypes` experimental and says so on stderr once per process: noise for a
 * user who only ran a `.ts` workflow. That one warning is dropped; every other passes through.
 */
function withoutExperimentalWarning<T>(run: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes("stripTypeScriptTypes")) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return run();
  } finally {
    process.emitWarning = emitWarning;
  }
}

/**
 * The `{...}` that starts at `from` (after blanks), found by matching braces outside strings,
 * template literals and comments.
 */
function objectLiteralAt(source: string, from: number, origin: string): string {
  let i = from;
  while (i < source.length && /\s/.test(source[i] ?? "")) i++;
  if (source[i] !== "{")
    throw new WorkflowScriptError(`${origin}: meta must be an object literal ({ ... }).`);
  const start = i;
  let depth = 0;
  while (i < source.length) {
    const char = source[i];
    const next = source[i + 1];
    if (char === '"' || char === "'" || char === "`") {
      i = skipString(source, i, char);
      continue;
    }
    if (char === "/" && next === "/") {
      i = source.indexOf("\n", i);
      if (i === -1) break;
      continue;
    }
    if (char === "/" && next === "*") {
      i = source.indexOf("*/", i + 2);
      if (i === -1) break;
      i += 2;
      continue;
    }
    if (char === "{") depth++;
    if (char === "}") {
      depth--;
      if (depth === 0) return source.slice(start, i + 1);
    }
    i++;
  }
  throw new WorkflowScriptError(`${origin}: meta's object literal is not closed.`);
}

function skipString(source: string, from: number, quote: string): number {
  let i = from + 1;
  while (i < source.length && source[i] !== quote) i += source[i] === "\\" ? 2 : 1;
  return i + 1;
}
