import { createInterface, type Interface } from "node:readline";
import type {
  ElicitationAnswer,
  ElicitationField,
  ElicitationRequest,
  ElicitationValue,
} from "../mcp/client-features.ts";
import { parseFieldAnswer } from "../mcp/elicitation.ts";

/** Asks a person to fill in an MCP server's form; resolves with their answer (decline or cancel too). */
export type ElicitHandler = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

export interface TerminalElicitOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Called before the form is printed, so a renderer can finish its current line. */
  beforePrompt?: () => void;
  /** Raw mode with line editing; Ctrl-C calls this (chat's interactive mode, as the permission prompt). */
  onInterrupt?: () => void;
}

/**
 * An MCP server's form on the terminal (stderr), as the permission prompt asks: first whether to answer
 * at all (y, or n to decline, c to cancel), then one line per field, checked as it is typed (a number, a
 * choice by its number, y/n). The signal's abort (the turn ended, the server gave up) cancels it.
 */
export function terminalElicit(options: TerminalElicitOptions): ElicitHandler {
  return async (request, signal) => {
    await new Promise((resolve) => setImmediate(resolve));
    if (signal.aborted) return { action: "cancel" };
    options.beforePrompt?.();
    const rl = createInterface({
      input: options.input,
      output: options.output,
      terminal: options.onInterrupt !== undefined,
    });
    if (options.onInterrupt) rl.on("SIGINT", options.onInterrupt);
    const ask = lineQueue(rl, options.output, signal);
    try {
      const fields =
        request.fields.length === 0
          ? ""
          : ` (${request.fields.length} field${request.fields.length === 1 ? "" : "s"})`;
      while (true) {
        const first = await ask(
          `? MCP server "${request.server}" asks${fields}: ${request.message}\n  [y] answer   [n] decline   [c] cancel > `,
        );
        if (first === undefined) return { action: "cancel" };
        const choice = first.trim().toLowerCase();
        if (choice === "n" || choice === "no") return { action: "decline" };
        if (choice === "c" || choice === "cancel") return { action: "cancel" };
        if (choice === "y" || choice === "yes") break;
      }
      const content: Record<string, ElicitationValue> = {};
      for (const field of request.fields) {
        const value = await askField(field, ask, options.output);
        if (value === "closed") return { action: "cancel" };
        if (value !== undefined) content[field.name] = value;
      }
      return { action: "accept", content };
    } finally {
      rl.close();
    }
  };
}

async function askField(
  field: ElicitationField,
  ask: (question: string) => Promise<string | undefined>,
  output: NodeJS.WritableStream,
): Promise<ElicitationValue | undefined | "closed"> {
  const label = field.title ?? field.name;
  const about = field.description === undefined ? "" : ` — ${field.description}`;
  const choices = field.options
    ?.map((option, index) => `${index + 1}) ${option.title ?? option.value}`)
    .join("  ");
  const hint = [
    choices === undefined ? undefined : field.multiple ? `${choices} (numbers, comma-separated)` : choices,
    field.type === "boolean" ? "y/n" : undefined,
    field.default === undefined ? undefined : `default ${String(field.default)}`,
    field.required ? undefined : "optional",
  ]
    .filter((part) => part !== undefined)
    .join("; ");
  while (true) {
    const line = await ask(`  ${label}${about}${hint ? ` [${hint}]` : ""}: `);
    if (line === undefined) return "closed";
    const parsed = parseFieldAnswer(field, line);
    if ("value" in parsed) return parsed.value;
    output.write(`  (${parsed.problem})\n`);
  }
}

/**
 * Questions answered line by line: lines typed (or piped) before their question are kept for it, and a
 * question asked after the input ended, or the signal aborted, gets `undefined`.
 */
function lineQueue(
  rl: Interface,
  output: NodeJS.WritableStream,
  signal: AbortSignal,
): (question: string) => Promise<string | undefined> {
  const lines: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  let closed = false;
  rl.on("line", (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else lines.push(line);
  });
  const close = () => {
    closed = true;
    for (const next of waiting.splice(0)) next(undefined);
  };
  rl.on("close", close);
  signal.addEventListener("abort", () => rl.close(), { once: true });
  return (question) => {
    const line = lines.shift();
    if (closed) {
      if (line !== undefined) output.write(`${question}${line}\n`);
      return Promise.resolve(line);
    }
    // As the prompt (what `rl.question` does), so line editing redraws it rather than erasing it.
    rl.setPrompt(question);
    rl.prompt();
    if (line !== undefined) return Promise.resolve(line);
    // Writing the prompt may have closed it (a listener that aborts the form).
    if (closed) return Promise.resolve(undefined);
    return new Promise((resolve) => waiting.push(resolve));
  };
}
