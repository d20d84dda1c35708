import { fstatSync } from "node:fs";
import { UsageError } from "./errors.ts";

/** The prompt argument, or all of stdin when it is `-`. Empty prompts are a usage error. */
export async function readPrompt(argument: string, stdin: NodeJS.ReadableStream): Promise<string> {
  const text = argument === "-" ? await readAll(stdin) : argument;
  if (text.trim() === "") {
    throw new UsageError(
      argument === "-"
        ? "The prompt read from stdin is empty."
        : 'The prompt is empty. Usage: agentry run "<prompt>"',
    );
  }
  return text;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  // Node's stdin ends quietly on EISDIR (`agentry run - < folder`), which would read as an empty prompt.
  if (isDirectory(stream))
    throw new UsageError(
      'stdin is a directory, not a prompt. Pipe the text of a file instead (agentry run - < prompt.md), or pass the prompt as an argument: agentry run "<prompt>"',
    );
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
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
