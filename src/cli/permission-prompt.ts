import { createInterface } from "node:readline";
import type { AskAnswer, AskHandler, AskRequest } from "../permissions/gate.ts";
import { canGoRaw, readKey } from "./read-key.ts";

export interface TerminalAskOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Called before the question is printed, so a renderer can finish its current line. */
  beforePrompt?: () => void;
  /**
   * What Ctrl-C does while a question waits (the key is read in raw mode, so the terminal raises no
   * SIGINT). Default: SIGINT to this process, as the key would be without raw mode (`agentry run`
   * aborts); the interactive mode passes its own, which interrupts the turn without reaching wrappers
   * such as npx.
   */
  onInterrupt?: () => void;
}

/** What a key answers; `tell` asks for a line to hand to the model with the "no". */
type KeyAnswer = Exclude<AskAnswer, object> | "tell" | "interrupt";

const KEYS: Readonly<Record<string, KeyAnswer>> = {
  y: "once",
  a: "always",
  n: "reject",
  t: "tell",
  "\u001b": "reject", // Esc alone (arrow keys and the like are longer sequences)
  "\u0004": "reject", // Ctrl-D
  "\u0003": "interrupt", // Ctrl-C
};

/** The answer a key press (or the first character of a line, when stdin is not a terminal) gives. */
export function keyAnswer(chunk: string): KeyAnswer | undefined {
  if (chunk.startsWith("\u001b") && chunk.length > 1) return undefined;
  const key = chunk.trimStart().slice(0, 1);
  return Object.hasOwn(KEYS, key.toLowerCase()) ? KEYS[key.toLowerCase()] : undefined;
}

/**
 * Interactive permission prompts on the terminal (stderr), answered with one key and no Enter: `y`
 * once, `a` always (the prompt shows the rule it adds, e.g. `Bash(npm test:*)`), `n` or Esc no, `t`
 * no with a line for the model (what to do instead). Other keys get a hint. The gate queues asks, so
 * only one question is on screen at a time, and aborts `signal` when the ask times out or the run is
 * cancelled.
 */
export function terminalAsk(options: TerminalAskOptions): AskHandler {
  const interrupt = options.onInterrupt ?? (() => process.kill(process.pid, "SIGINT"));
  return async (request, signal) => {
    // The ask comes from inside a tool call whose start event the renderer has not drawn yet; let it
    // draw first, so the question appears below the tool line instead of in the middle of it.
    await new Promise((resolve) => setImmediate(resolve));
    if (signal.aborted) return "reject";
    options.beforePrompt?.();
    const { input, output } = options;
    // Raw mode first (readKey enters it at once), then the question: a Ctrl-C typed as soon as the
    // question shows must be a key here, not a SIGINT the terminal sends the whole process group (a
    // wrapping shell or npx would die of it).
    const reading = readKey(input, signal, (chunk) => {
      const answer = keyAnswer(chunk);
      if (answer === "interrupt") interrupt();
      else if (answer === undefined) output.write(`\n  ${HINT} `);
      return answer === "interrupt" ? undefined : answer;
    });
    output.write(question(request));
    const key = await reading;
    if (key === "dismissed") {
      output.write("\n(no longer needed)\n");
      return "reject";
    }
    output.write(`${echo(key, request)}\n`);
    if (key !== "tell") return key;
    const message = await readLine(input, output, signal, interrupt);
    return message === undefined || message === "" ? "reject" : { type: "reject", message };
  };
}

const HINT = "press y (yes), a (always) or n (no) — or t to say no and tell the model why >";

function question(request: AskRequest): string {
  const what = request.title ?? `${request.permission} ${request.patterns.join(", ")}`.trim();
  const who = request.agentPath.length > 1 ? request.agentPath.join(" › ") : "agentry";
  return (
    `? ${who} wants to ${request.permission}: ${what}\n` +
    `  [y] yes, once   [a] always: ${alwaysCovers(request)}   [n] no   [t] no, and tell it what to do > `
  );
}

/** What "always" adds for the rest of the session, e.g. `Bash(npm test:*) this session`. */
function alwaysCovers(request: AskRequest): string {
  const rules = request.alwaysRules.length > 0 ? request.alwaysRules : request.always;
  const shown = rules.slice(0, 3).join(", ");
  const more = rules.length > 3 ? ` and ${rules.length - 3} more` : "";
  return `${shown}${more} this session`;
}

function echo(answer: Exclude<KeyAnswer, "interrupt">, request: AskRequest): string {
  if (answer === "once") return "yes";
  if (answer === "always") return `always: ${alwaysCovers(request)}`;
  return "no";
}

/** One line with editing (on a terminal), or undefined when the ask is dismissed or the input ends. */
function readLine(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  signal: AbortSignal,
  interrupt: () => void,
): Promise<string | undefined> {
  const rl = createInterface({ input, output, terminal: canGoRaw(input) });
  rl.on("SIGINT", interrupt);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (line: string | undefined) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      rl.close();
      input.pause();
      resolve(line?.trim());
    };
    const onAbort = () => {
      output.write("\n(no longer needed)\n");
      finish(undefined);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    rl.on("close", () => finish(undefined));
    rl.question("  tell the model what to do instead (Enter alone: just no) > ", (line) => finish(line));
  });
}
