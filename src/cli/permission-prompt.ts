import { createInterface } from "node:readline";
import type { AskAnswer, AskHandler, AskRequest } from "../permissions/gate.ts";

export interface TerminalAskOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Called before the question is printed, so a renderer can finish its current line. */
  beforePrompt?: () => void;
  /**
   * Read the answer in raw mode with line editing, and call this on Ctrl-C instead of letting the
   * terminal raise SIGINT (the interactive mode, whose Ctrl-C must not reach wrappers such as npx).
   */
  onInterrupt?: () => void;
}

/**
 * Interactive permission prompts on the terminal (stderr). The gate queues asks, so only one
 * question is on screen at a time, and aborts `signal` when the ask times out or the run is cancelled.
 */
export function terminalAsk(options: TerminalAskOptions): AskHandler {
  return async (request, signal) => {
    // The ask comes from inside a tool call whose start event the renderer has not drawn yet; let it
    // draw first, so the question appears below the tool line instead of in the middle of it.
    await new Promise((resolve) => setImmediate(resolve));
    if (signal.aborted) return "reject";
    options.beforePrompt?.();
    const what = request.title ?? `${request.permission} ${request.patterns.join(", ")}`.trim();
    const who = request.agentPath.length > 1 ? request.agentPath.join(" › ") : "agentry";
    const { onInterrupt } = options;
    const rl = createInterface({
      input: options.input,
      output: options.output,
      terminal: onInterrupt !== undefined,
    });
    if (onInterrupt) rl.on("SIGINT", onInterrupt);
    return new Promise<AskAnswer>((resolve) => {
      let settled = false;
      const finish = (answer: AskAnswer) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener("abort", onAbort);
        rl.close();
        resolve(answer);
      };
      const onAbort = () => {
        options.output.write("\n(no longer needed)\n");
        finish("reject");
      };
      signal.addEventListener("abort", onAbort, { once: true });
      rl.on("close", () => finish("reject"));
      const question = `? ${who} wants to ${request.permission}: ${what}\n  [y] yes, once   [a] always (${alwaysCovers(request)})   [n] no > `;
      const prompt = () =>
        rl.question(question, (line) => {
          const answer = parseAnswer(line);
          if (answer) finish(answer);
          else prompt();
        });
      prompt();
    });
  };
}

/** What "always" will approve for the rest of the session, e.g. `read *.env` or `bash npm test`. */
function alwaysCovers(request: AskRequest): string {
  const shown = request.always.slice(0, 3).join(", ");
  const more = request.always.length > 3 ? ` and ${request.always.length - 3} more` : "";
  return `${request.permission} ${shown}${more} this session`;
}

/** `y`/`yes` once, `a`/`always`, `n`/`no` or an empty line rejects; anything else asks again. */
export function parseAnswer(line: string): AskAnswer | undefined {
  const value = line.trim().toLowerCase();
  if (value === "y" || value === "yes" || value === "once") return "once";
  if (value === "a" || value === "always") return "always";
  if (value === "n" || value === "no" || value === "reject" || value === "") return "reject";
  return undefined;
}
