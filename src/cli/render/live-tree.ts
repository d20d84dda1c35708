import { type AgentTreeState, emptyAgentTree } from "../../tree/agent-tree-state.ts";
import { hasActiveChildren } from "../../tree/agent-tree-totals.ts";
import { renderAgentTree } from "./agent-tree-view.ts";
import type { OutputStream } from "./renderer.ts";
import { rowsCovered } from "./text-width.ts";

/** A terminal stream; Node's `tty.WriteStream` has `columns` and `rows`. */
export interface TerminalStream extends OutputStream {
  columns?: number;
  rows?: number;
}

export interface LiveTreeOptions {
  /** Where the tree is drawn (stderr). */
  terminal: TerminalStream;
  color: boolean;
  /** Redraw period; default 100 ms (10 fps). */
  intervalMs?: number;
  now?: () => number;
}

/**
 * The agent tree drawn in place below the normal output while children run. Output that must go to
 * the same terminal is written through `wrap()`ped streams: each write first erases the tree (and
 * restores an unfinished line the tree had pushed down), so text and tree never mix; the next tick
 * draws the tree again under it.
 */
export interface LiveTree {
  /** `stream` with the tree erased before each write; `stream` must show on the same terminal. */
  wrap(stream: OutputStream): OutputStream;
  /** The newest state; the tree shows while some child is queued or running, and erases itself after. */
  update(state: AgentTreeState): void;
  /** Draws now when something changed (the timer calls it). */
  draw(): void;
  /** Erases the tree and draws nothing until `resume()` (a prompt owns the terminal). */
  pause(): void;
  resume(): void;
  /** Erases the tree and stops the timer; the terminal is left as if the tree had never been drawn. */
  clear(): void;
}

const ESC = "\u001b[";
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escape sequences is the point.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

export function createLiveTree(options: LiveTreeOptions): LiveTree {
  const { terminal } = options;
  const now = options.now ?? Date.now;
  const intervalMs = options.intervalMs ?? 100;
  let state = emptyAgentTree;
  let timer: NodeJS.Timeout | undefined;
  let paused = false;
  /** Rows the drawn tree occupies (0: not drawn), and whether it pushed an unfinished line down. */
  let drawnRows = 0;
  let pushedPending = false;
  let lastFrame = "";
  /** What follows the last newline written to the terminal: the line the cursor is on. */
  let pending = "";

  const columns = () => Math.max(20, terminal.columns ?? 80);
  /** Rows a line of text covers on the terminal, counted in columns (a CJK character takes two). */
  const rowsOf = (text: string) => rowsCovered((text.split("\r").at(-1) ?? "").replace(ANSI, ""), columns());

  const eraseSequence = (): string => {
    if (drawnRows === 0) return "";
    const up = drawnRows - 1 + (pushedPending ? rowsOf(pending) : 0);
    const sequence = `\r${up > 0 ? `${ESC}${up}A` : ""}${ESC}J${pushedPending ? pending : ""}`;
    drawnRows = 0;
    pushedPending = false;
    lastFrame = "";
    return sequence;
  };

  const erase = () => {
    const sequence = eraseSequence();
    if (sequence !== "") terminal.write(sequence);
  };

  const stopTimer = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  const draw = () => {
    if (paused || !hasActiveChildren(state)) return;
    // One line short of the width: a line that fills the last column makes some terminals wrap.
    const lines = renderAgentTree(state, {
      now: now(),
      width: columns() - 1,
      color: options.color,
      maxLines: Math.max(3, (terminal.rows ?? 24) - 2),
    });
    const frame = lines.join("\n");
    if (frame === lastFrame) return;
    // Redraw over the old tree in one write, so the terminal never shows a half-erased frame.
    const redraw =
      drawnRows > 0
        ? `\r${drawnRows > 1 ? `${ESC}${drawnRows - 1}A` : ""}${ESC}J`
        : pending === ""
          ? ""
          : "\n";
    if (drawnRows === 0) pushedPending = pending !== "";
    terminal.write(redraw + frame);
    drawnRows = lines.length;
    lastFrame = frame;
  };

  return {
    wrap(stream: OutputStream): OutputStream {
      return {
        ...(stream.isTTY === undefined ? {} : { isTTY: stream.isTTY }),
        write(text: string) {
          erase();
          const written = stream.write(text);
          const cut = text.lastIndexOf("\n");
          pending = cut === -1 ? pending + text : text.slice(cut + 1);
          return written;
        },
      };
    },
    update(next: AgentTreeState) {
      state = next;
      if (hasActiveChildren(state)) {
        if (timer === undefined) {
          timer = setInterval(draw, intervalMs);
          timer.unref();
          draw();
        }
      } else if (timer !== undefined || drawnRows > 0) {
        stopTimer();
        erase();
      }
    },
    draw,
    pause() {
      paused = true;
      erase();
    },
    resume() {
      paused = false;
    },
    clear() {
      stopTimer();
      erase();
    },
  };
}
