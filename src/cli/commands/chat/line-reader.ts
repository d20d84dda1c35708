import { createInterface, type Interface } from "node:readline";

/** Where the interactive mode's lines come from. */
export interface LineReader {
  /**
   * The next line, or `undefined` when the input ended (Ctrl-D, end of piped input), the user pressed
   * Ctrl-C twice at an empty prompt, or `close()` was called.
   */
  read(): Promise<string | undefined>;
  /** A Ctrl-C that arrived as a signal while no turn runs: handled as Ctrl-C at the prompt. */
  interrupt(): void;
  /** Stops reading for good; a pending `read()` resolves `undefined`. */
  close(): void;
}

export interface LineReaderOptions {
  input: NodeJS.ReadableStream;
  /** Prompts, echoes and hints (stderr). */
  output: NodeJS.WritableStream;
  /** e.g. `› ` */
  prompt: string;
  /** Tab completion of the line typed so far: the candidates (readline shows them, or fills the only one). */
  complete?: (line: string) => string[];
}

const EXIT_HINT = "(press Ctrl-C again to exit, or type /exit)\n";

/**
 * Lines typed on a terminal, with line editing and history (↑/↓). A fresh readline owns stdin only
 * while the prompt is shown and is closed before the line is returned, so during a turn stdin is
 * paused and in normal (cooked) mode: a permission prompt can read it, and Ctrl-C is a real SIGINT
 * that aborts the turn. At the prompt, Ctrl-C clears the line; on an empty line, a second Ctrl-C exits.
 */
export function terminalLineReader(options: LineReaderOptions): LineReader {
  const history: string[] = [];
  let active: { rl: Interface; finish: (line: string | undefined) => void } | undefined;
  let closed = false;
  // Set by a Ctrl-C on an empty prompt; the next one exits, anything typed disarms it.
  let armed = false;

  const onCtrlC = () => {
    const rl = active?.rl;
    if (rl && rl.line !== "") {
      rl.write(null, { ctrl: true, name: "e" });
      rl.write(null, { ctrl: true, name: "u" });
      armed = false;
      return;
    }
    if (armed) {
      options.output.write("\n");
      active?.finish(undefined);
      closed = true;
      return;
    }
    armed = true;
    options.output.write(`\n${EXIT_HINT}`);
    rl?.prompt();
  };

  return {
    read() {
      if (closed) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const rl = createInterface({
          input: options.input,
          output: options.output,
          terminal: true,
          prompt: options.prompt,
          history,
          historySize: 500,
          removeHistoryDuplicates: true,
          ...(options.complete === undefined
            ? {}
            : { completer: (line: string): [string[], string] => [options.complete?.(line) ?? [], line] }),
        });
        let settled = false;
        const finish = (line: string | undefined) => {
          if (settled) return;
          settled = true;
          active = undefined;
          rl.close();
          resolve(line);
        };
        active = { rl, finish };
        rl.on("line", (line) => {
          armed = false;
          finish(line);
        });
        rl.on("close", () => {
          // Ctrl-D: end the prompt's line so the shell's prompt starts on its own.
          if (!settled) options.output.write("\n");
          finish(undefined);
        });
        rl.on("SIGINT", onCtrlC);
        rl.prompt();
      });
    },
    interrupt: onCtrlC,
    close() {
      closed = true;
      active?.finish(undefined);
    },
  };
}

/**
 * Lines of piped input (scripts, tests): read ahead into a queue, since a turn may run while more
 * lines arrive. Each line is echoed after the prompt, so stderr reads as a transcript. Permission
 * prompts never read this input (they resolve by `--permission-mode`), so nothing else competes for it.
 */
export function streamLineReader(options: LineReaderOptions): LineReader {
  const rl = createInterface({ input: options.input, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
  const queued: string[] = [];
  let ended = false;
  let armed = false;
  let waiting: ((line: string | undefined) => void) | undefined;

  const deliver = (line: string | undefined) => {
    const resolve = waiting;
    waiting = undefined;
    if (line !== undefined && line.trim() !== "") {
      armed = false;
      options.output.write(`${options.prompt}${line}\n`);
    }
    resolve?.(line);
  };
  rl.on("line", (line) => {
    if (waiting) deliver(line);
    else queued.push(line);
  });
  rl.on("close", () => {
    ended = true;
    if (waiting && queued.length === 0) deliver(undefined);
  });

  const close = () => {
    ended = true;
    queued.length = 0;
    rl.close();
    deliver(undefined);
  };
  return {
    read() {
      if (queued.length > 0) {
        return new Promise((resolve) => {
          waiting = resolve;
          deliver(queued.shift());
        });
      }
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    interrupt() {
      if (armed) {
        close();
        return;
      }
      armed = true;
      options.output.write(EXIT_HINT);
    },
    close,
  };
}
