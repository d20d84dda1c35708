import type { AgentEvent } from "../../contracts/events.ts";
import type { Outcome } from "../../contracts/outcome.ts";
import { type AgentTreeState, emptyAgentTree, reduceAgentTree } from "../../tree/agent-tree-state.ts";
import { treeTotals } from "../../tree/agent-tree-totals.ts";
import { totalsText } from "./agent-tree-view.ts";
import { createRenderer } from "./create-renderer.ts";
import { createLiveTree, type TerminalStream } from "./live-tree.ts";
import { progressLine, progressSummary } from "./progress-lines.ts";
import type { OutputFormat, Renderer, RenderTarget } from "./renderer.ts";
import { createStyle } from "./style.ts";
import type { TextRendererOptions } from "./text-renderer.ts";

export interface AgentTreeRenderer extends Renderer {
  /** Lets the live tree draw again after `interrupt()` (e.g. once a permission prompt is answered). */
  resume(): void;
  /** The tree so far: every agent of the run with its status, tokens and cost. */
  readonly tree: AgentTreeState;
}

export interface AgentTreeOptions {
  now?: () => number;
  /** Live-tree redraw period (default 100 ms). */
  intervalMs?: number;
}

/**
 * Adds the subagent view to a text renderer. On a terminal (stderr is a TTY) a live tree of the running
 * children is drawn below the output and erased when they finish, each finished child leaving one line;
 * the inner renderer then shows only the root's own activity. Elsewhere (logs, CI) each child's start
 * and end is one line on stderr, and the inner renderer sees every event. Either way a run that had
 * children ends with one line of totals over the whole tree.
 */
export function withAgentTree(
  makeInner: (target: RenderTarget) => Renderer,
  target: RenderTarget,
  options: AgentTreeOptions = {},
): AgentTreeRenderer {
  const now = options.now ?? Date.now;
  const style = createStyle(target.color ?? false);
  const stderr = target.stderr as TerminalStream;
  let tree = emptyAgentTree;

  if (stderr.isTTY !== true) {
    const inner = makeInner(target);
    const line = (text: string) => {
      inner.interrupt?.();
      target.stderr.write(`${style.dim(text)}\n`);
    };
    return {
      get tree() {
        return tree;
      },
      event(event: AgentEvent) {
        tree = reduceAgentTree(tree, event, now());
        inner.event(event);
        const text = progressLine(event, tree);
        if (text !== undefined) line(text);
      },
      finish(outcome: Outcome) {
        const summary = progressSummary(tree);
        if (summary !== undefined) line(summary);
        inner.finish(outcome);
      },
      interrupt: () => inner.interrupt?.(),
      resume() {},
    };
  }

  const live = createLiveTree({
    terminal: stderr,
    color: target.color ?? false,
    now,
    ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
  });
  const wrappedStderr = live.wrap(target.stderr);
  const inner = makeInner({
    ...target,
    // stdout shares the terminal only when it is one; piped stdout never disturbs the tree.
    stdout: target.stdout.isTTY === true ? live.wrap(target.stdout) : target.stdout,
    stderr: wrappedStderr,
  });
  const line = (text: string) => {
    inner.interrupt?.();
    wrappedStderr.write(`${text}\n`);
  };
  return {
    get tree() {
      return tree;
    },
    event(event: AgentEvent) {
      tree = reduceAgentTree(tree, event, now());
      // The tree shows what children do; their tool lines would only scroll it away.
      if (event.agentPath.length === 1 || event.type === "retry") inner.event(event);
      if (event.type === "agent_end" && event.agentPath.length > 1) {
        const text = progressLine(event, tree);
        const glyph = event.outcome.status === "completed" ? style.green("✓") : style.red("✗");
        if (text !== undefined) line(`${"  ".repeat(event.agentPath.length - 1)}${glyph} ${style.dim(text)}`);
      }
      live.update(tree);
    },
    finish(outcome: Outcome) {
      live.clear();
      const totals = treeTotals(tree);
      if (totals.children > 0) line(style.dim(`Σ ${totalsText(totals)}`));
      inner.finish(outcome);
    },
    interrupt() {
      live.pause();
      inner.interrupt?.();
    },
    resume() {
      live.resume();
    },
  };
}

/**
 * `createRenderer` with the subagent view added to the text format; `json` and `stream-json` stay
 * as they are (their consumers read every agent's events from the output itself).
 */
export function createTreeRenderer(
  format: OutputFormat,
  target: RenderTarget,
  options: AgentTreeOptions & TextRendererOptions = {},
): Renderer & { resume?(): void } {
  const { now, intervalMs, ...text } = options;
  const tree = { ...(now === undefined ? {} : { now }), ...(intervalMs === undefined ? {} : { intervalMs }) };
  return format === "text"
    ? withAgentTree((inner) => createRenderer("text", inner, text), target, tree)
    : createRenderer(format, target);
}

/**
 * A permission prompt handler that gives the terminal back to the live tree once answered. Its
 * `beforePrompt` should call the renderer's `interrupt()`, which erases the tree and holds it back
 * while the question is on screen.
 */
export function resumeTreeAfter<Request, Answer>(
  renderer: { resume?(): void },
  ask: (request: Request, signal: AbortSignal) => Promise<Answer>,
): (request: Request, signal: AbortSignal) => Promise<Answer> {
  return async (request, signal) => {
    try {
      return await ask(request, signal);
    } finally {
      renderer.resume?.();
    }
  };
}
