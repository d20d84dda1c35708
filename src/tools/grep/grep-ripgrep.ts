import type { Operations } from "../operations.ts";
import { BINARY_SAMPLE_BYTES } from "../text-detection.ts";
import { ToolError } from "../tool.ts";
import type { FileMatches, GrepFile, GrepLine, GrepQuery } from "./grep-query.ts";

const GREP_TIMEOUT_MS = 120_000;
/** The command is one argument of `bash -c`, and Linux caps one argument at 128 KiB. */
const MAX_COMMAND_CHARS = 100_000;
/**
 * Files open at once for one ripgrep command (Node raises its descriptor limit to the hard one, often
 * far above this); fewer commands than a few hundred files each would start, which costs more.
 */
const FILES_PER_COMMAND = 2048;
/** `/proc/<pid>/fd/<n>` is at most this long. */
const DESCRIPTOR_PATH_CHARS = 40;
const availability = new WeakMap<Operations, Promise<boolean>>();

/** Whether `rg` is on the PATH of the machine behind `ops` (asked once per Operations). */
export function hasRipgrep(ops: Operations, cwd: string): Promise<boolean> {
  let known = availability.get(ops);
  if (known === undefined) {
    known = ops
      .exec("command -v rg", { cwd, signal: new AbortController().signal, timeoutMs: 10_000 })
      .then((result) => result.exitCode === 0 && result.output.trim() !== "")
      .catch(() => false);
    availability.set(ops, known);
  }
  return known;
}

/**
 * Searches `files` with ripgrep through `ops.exec`, so the same tool works wherever the Operations run
 * commands, reading them through the descriptors `ops.withOpenFiles` opened. The files are ours (`grep-files.ts`): ripgrep reads no ignore file and walks nothing, so it
 * cannot disagree with git or with the JavaScript engine about which files count. Its `--json` output
 * tells binary files apart, which it would otherwise report as matches when named on the command line;
 * they are dropped by the rule `grep-js.ts` applies (a NUL in the first 8 KB).
 */
export async function grepWithRipgrep(
  ops: Operations,
  query: GrepQuery,
  files: readonly GrepFile[],
  signal: AbortSignal,
): Promise<FileMatches[]> {
  const flags = ["rg", "--json", "--no-config", "--no-ignore", "--no-messages"];
  if (query.ignoreCase) flags.push("--ignore-case");
  // Only whether a file matches counts; stopping at the first match keeps the output small.
  if (query.mode === "files_with_matches") flags.push("--max-count", "1");
  if (query.mode === "content" && query.context > 0) flags.push("--context", String(query.context));
  flags.push("--regexp", query.pattern, "--");

  const prefix = flags.map(shellQuote).join(" ");
  const found = new Map<string, ParsedFile>();
  for (const batch of batches(files, prefix)) {
    // ripgrep reads the descriptors this process opened and checked, not the names: a folder swapped
    // for a link after the walk cannot lead it elsewhere (Operations.withOpenFiles).
    await ops.withOpenFiles(
      batch.map((file) => file.absolute),
      async (opened) => {
        const byOpened = new Map<string, GrepFile>();
        opened.forEach((path, index) => {
          const file = batch[index];
          if (path !== undefined && file !== undefined) byOpened.set(path, file);
        });
        if (byOpened.size === 0) return;
        const command = `${prefix} ${[...byOpened.keys()].map(shellQuote).join(" ")}`;
        const result = await ops.exec(command, { cwd: query.root, signal, timeoutMs: GREP_TIMEOUT_MS });
        if (result.aborted) throw new ToolError("grep was aborted.");
        if (result.timedOut) {
          throw new ToolError(
            `grep timed out after ${GREP_TIMEOUT_MS / 1000} s; narrow it with path or glob.`,
          );
        }
        const parsed = parseJsonLines(result.output);
        // 1: no match. 2: an error; with --no-messages only a fatal one (a bad regex) prints anything.
        if (result.exitCode === 2 && parsed.errors !== "")
          throw new ToolError(`grep failed: ${parsed.errors}`);
        if (result.exitCode !== 0 && result.exitCode !== 1 && result.exitCode !== 2) {
          throw new ToolError(`grep failed: ${parsed.errors || `ripgrep exit code ${result.exitCode}`}`);
        }
        for (const file of parsed.files) {
          const original = byOpened.get(file.path);
          if (original !== undefined) found.set(original.path, { ...file, path: original.path });
        }
      },
    );
  }

  const out: FileMatches[] = [];
  for (const file of files) {
    const match = found.get(file.path);
    if (match === undefined || match.matchCount === 0) continue;
    // The JavaScript engine's rule: a NUL in the first 8 KB (ripgrep saw one, maybe later, in a named file).
    if (match.binaryOffset !== null && match.binaryOffset < BINARY_SAMPLE_BYTES) continue;
    out.push({ path: file.path, matchCount: match.matchCount, lines: match.lines });
  }
  return out;
}

interface ParsedFile extends FileMatches {
  /** Where ripgrep saw a NUL byte, if it did. */
  binaryOffset: number | null;
}

/**
 * Splits the files into commands that stay under the argument limit (each file is named by its
 * descriptor's path, or where there is none by its absolute path) and keep few files open at once.
 */
function* batches(files: readonly GrepFile[], prefix: string): Generator<GrepFile[]> {
  let batch: GrepFile[] = [];
  let length = prefix.length;
  for (const file of files) {
    const added = Math.max(shellQuote(file.absolute).length, DESCRIPTOR_PATH_CHARS) + 1;
    if (batch.length > 0 && (length + added > MAX_COMMAND_CHARS || batch.length >= FILES_PER_COMMAND)) {
      yield batch;
      batch = [];
      length = prefix.length;
    }
    batch.push(file);
    length += added;
  }
  if (batch.length > 0) yield batch;
}

/**
 * ripgrep's JSON lines (`begin`, `match`, `context`, `end`, `summary`) into one record per file; any
 * other line is an error message (stderr shares the output).
 */
function parseJsonLines(output: string): { files: ParsedFile[]; errors: string } {
  const files = new Map<string, ParsedFile>();
  const errors: string[] = [];
  for (const line of output.split("\n")) {
    if (line.trim() === "") continue;
    const message = parseMessage(line);
    if (message === undefined) {
      errors.push(line);
      continue;
    }
    if (message.path === undefined) continue;
    let file = files.get(message.path);
    if (file === undefined) {
      file = { path: message.path, matchCount: 0, lines: [], binaryOffset: null };
      files.set(message.path, file);
    }
    if (message.type === "end") file.binaryOffset = message.binaryOffset;
    else if (message.type === "match" || message.type === "context") {
      if (message.type === "match") file.matchCount += 1;
      file.lines.push({
        number: message.line.number,
        text: message.line.text,
        isMatch: message.type === "match",
      });
    }
  }
  for (const file of files.values()) file.lines.sort((a, b) => a.number - b.number);
  return { files: [...files.values()], errors: errors.join("\n").trim() };
}

type Message =
  | { type: "begin" | "summary"; path: string | undefined }
  | { type: "match" | "context"; path: string; line: GrepLine }
  | { type: "end"; path: string; binaryOffset: number | null };

function parseMessage(line: string): Message | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || !isRecord(value.data)) return undefined;
  const { type, data } = value;
  const path = textOf(data.path);
  switch (type) {
    case "begin":
    case "summary":
      return { type, path };
    case "end":
      if (path === undefined) return undefined;
      return { type, path, binaryOffset: typeof data.binary_offset === "number" ? data.binary_offset : null };
    case "match":
    case "context": {
      const text = textOf(data.lines);
      if (path === undefined || text === undefined || typeof data.line_number !== "number") return undefined;
      return {
        type,
        path,
        line: { number: data.line_number, text: text.replace(/\r?\n$/, ""), isMatch: type === "match" },
      };
    }
    default:
      return undefined;
  }
}

/** ripgrep sends `{text}` for UTF-8 and `{bytes}` (base64) otherwise; decoded as the JS engine does. */
function textOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  if (typeof value.text === "string") return value.text;
  if (typeof value.bytes === "string") return Buffer.from(value.bytes, "base64").toString("utf8");
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
