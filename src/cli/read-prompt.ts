import { fstatSync } from "node:fs";
import { formatSize } from "../tools/format-size.ts";
import { UsageError } from "./errors.ts";

/**
 * The most stdin `run` takes, as the prompt (`-`) or with one. About 250,000 tokens: more than most
 * context windows hold, so past it the model could not read it anyway.
 */
export const STDIN_MAX_BYTES = 1024 * 1024;

/** How long `run "<prompt>"` waits for stdin to start when it is neither a terminal nor at its end. */
export const STDIN_WAIT_MS = 3_000;

export interface ReadPromptOptions {
  /** Where the note goes when stdin stays silent. */
  stderr: NodeJS.WritableStream;
  /** Default `STDIN_MAX_BYTES`. */
  maxBytes?: number;
}

/**
 * The prompt of `agentry run`, as `claude -p` takes it: the argument; all of stdin when the argument is
 * `-` or missing; or the argument with piped stdin appended (`git diff | agentry run "review"`), inside
 * `<stdin>` tags so the model can tell the instruction from the data. Stdin on a terminal is never
 * read. An empty prompt, or stdin past the cap, is a usage error: nothing is run.
 */
export async function readPrompt(
  argument: string | undefined,
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
  options: ReadPromptOptions,
): Promise<string> {
  const maxBytes = options.maxBytes ?? STDIN_MAX_BYTES;
  const piped = stdin.isTTY !== true;
  if (argument === "-" || argument === undefined) {
    if (!piped) {
      throw new UsageError(
        'No prompt. Usage: agentry run "<prompt>" (or pipe it: cat prompt.md | agentry run -)',
      );
    }
    const text = await readAll(stdin, maxBytes, undefined);
    if (text !== undefined && text.trim() !== "") return text;
    throw new UsageError(
      argument === "-"
        ? "The prompt read from stdin is empty."
        : 'No prompt: agentry run "<prompt>", or pipe one (stdin was empty).',
    );
  }
  if (argument.trim() === "") throw new UsageError('The prompt is empty. Usage: agentry run "<prompt>"');
  if (!piped || isDirectory(stdin)) return argument;
  const text = await readAll(stdin, maxBytes, STDIN_WAIT_MS);
  if (text === undefined) {
    options.stderr.write(
      `warning: stdin sent nothing within ${STDIN_WAIT_MS / 1000} s; running with the prompt alone (give stdin an end, e.g. < /dev/null, to skip the wait)\n`,
    );
    return argument;
  }
  return text.trim() === "" ? argument : `${argument}\n\n<stdin>\n${text.replace(/\n$/, "")}\n</stdin>`;
}

/**
 * All of `stream`, refused past `maxBytes`. With `waitMs`, undefined when nothing came (neither data
 * nor the end) within it: a stdin some launchers leave open and never write must not hang the run.
 */
async function readAll(
  stream: NodeJS.ReadableStream,
  maxBytes: number,
  waitMs: number | undefined,
): Promise<string | undefined> {
  // Node's stdin ends quietly on EISDIR (`agentry run - < folder`), which would read as an empty prompt.
  if (isDirectory(stream))
    throw new UsageError(
      'stdin is a directory, not a prompt. Pipe the text of a file instead (agentry run - < prompt.md), or pass the prompt as an argument: agentry run "<prompt>"',
    );
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = waitMs === undefined ? undefined : setTimeout(() => done(undefined), waitMs);
    const done = (text: string | undefined, error?: Error) => {
      clearTimeout(timer);
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
      stream.pause();
      if (error) reject(error);
      else resolve(text);
    };
    const onData = (chunk: Buffer | string) => {
      clearTimeout(timer);
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) {
        done(
          undefined,
          new UsageError(
            `stdin has more than ${formatSize(maxBytes)}, the most agentry run takes with a prompt. ` +
              "Write it to a file in the workspace and name the file in the prompt (the agent reads it in parts), or pipe less.",
          ),
        );
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => done(Buffer.concat(chunks).toString("utf8"));
    const onError = (error: Error) => done(undefined, error);
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("error", onError);
    stream.resume();
  });
}

/** Whether the stream reads from a file descriptor open on a directory (streams without one are not). */
function isDirectory(stream: NodeJS.ReadableStream): boolean {
  const fd: unknown = "fd" in stream ? stream.fd : undefined;
  if (typeof fd !== "number") return false;
  try {
    return fstatSync(fd).isDirectory();
  } catch {
    return false;
  }
}
