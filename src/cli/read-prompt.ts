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
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}
