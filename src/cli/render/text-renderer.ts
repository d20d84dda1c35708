import type { AgentEvent, EventOf } from "../../contracts/events.ts";
import type { Outcome } from "../../contracts/outcome.ts";
import { assistantText } from "../../model/messages.ts";
import { formatDuration } from "../../text/format-duration.ts";
import { oneLine, summarizeArgs } from "../../text/summarize-args.ts";
import { compactedText, compactionFailedText, compactionStartText } from "./compaction-text.ts";
import { hookRunText } from "./hook-text.ts";
import type { Renderer, RenderTarget } from "./renderer.ts";
import { createStyle } from "./style.ts";

/** How often, at most, a running tool's line gets a progress note. */
const PROGRESS_NOTE_MS = 1_000;

export interface TextRendererOptions {
  /**
   * At the end of a run that did not complete, print how it ended and how to continue it with
   * `agentry run --resume` (default true; the interactive mode prints its own line after each turn).
   */
  reportOutcome?: boolean;
  /**
   * What stdout gets. `stream` (default): the root's text as it arrives, every message's. `final`: the
   * run's answer only (the outcome's final text, json's `result`), once, when the run ends — for a pipe
   * or a file, where a run whose background child reported after the first answer gave two answers.
   */
  answer?: "stream" | "final";
}

/**
 * `--output-format text`: the root agent's text streams to stdout as it arrives, so stdout is the
 * answer and can be piped; tool activity goes compactly to stderr:
 *
 *   ● bash  npm test  ✓ 1.2s
 *   ● read  src/a.ts  ✗ error: no such file
 *
 * A tool line is left open until its result arrives, unless something else must be printed first
 * (concurrent calls), in which case the result gets its own line naming the tool. With `answer:
 * "final"` stdout holds the final answer alone, written at the end.
 */
export function textRenderer(target: RenderTarget, options: TextRendererOptions = {}): Renderer {
  const style = createStyle(target.color ?? false);
  const { stdout, stderr } = target;
  let openToolLine: string | undefined;
  let stdoutNeedsNewline = false;
  const started = new Map<string, { name: string; depth: number }>();

  const closeToolLine = () => {
    if (openToolLine === undefined) return;
    stderr.write("\n");
    openToolLine = undefined;
  };
  const indent = (depth: number) => "  ".repeat(depth);
  const label = (path: string[]) => (path.length > 1 ? style.dim(`[${path.slice(1).join(" › ")}] `) : "");

  // Whether the root's current message streamed any text, and whether stdout is mid-line.
  let streamedText = false;
  const streaming = options.answer !== "final";
  const onText = (event: EventOf<"text_delta">) => {
    if (!streaming || event.agentPath.length !== 1 || event.delta === "") return;
    closeToolLine();
    stdout.write(event.delta);
    streamedText = true;
    stdoutNeedsNewline = !event.delta.endsWith("\n");
  };
  const onAssistantMessage = (event: EventOf<"assistant_message">) => {
    if (!streaming || event.agentPath.length !== 1) return;
    // Text normally arrives as deltas; a message that came without them still gets printed.
    const text = assistantText(event.message);
    if (!streamedText && text !== "") {
      closeToolLine();
      stdout.write(text);
      stdoutNeedsNewline = !text.endsWith("\n");
    }
    if (stdoutNeedsNewline) stdout.write("\n");
    stdoutNeedsNewline = false;
    streamedText = false;
  };

  const onToolStart = (event: EventOf<"tool_start">) => {
    closeToolLine();
    const depth = event.agentPath.length - 1;
    started.set(event.toolCallId, { name: event.name, depth });
    const summary = summarizeArgs(event.args);
    stderr.write(
      `${indent(depth)}${label(event.agentPath)}${style.cyan("●")} ${style.bold(event.name)}  ${summary}`,
    );
    openToolLine = event.toolCallId;
  };
  // A tool's status notes (an MCP server's progress) go on its open line, at most one a second, so a
  // long call does not look hung; bash's progress is its output (the result shows it) and task's the
  // live tree's.
  const lastNote = new Map<string, number>();
  const onToolProgress = (event: EventOf<"tool_progress">) => {
    if (event.name === "bash" || event.name === "task" || openToolLine !== event.toolCallId) return;
    const now = Date.now();
    if (now - (lastNote.get(event.toolCallId) ?? 0) < PROGRESS_NOTE_MS) return;
    lastNote.set(event.toolCallId, now);
    stderr.write(style.dim(` · ${oneLine(event.update, 80)}`));
  };
  const onToolEnd = (event: EventOf<"tool_end">) => {
    lastNote.delete(event.toolCallId);
    const verdict = event.isError
      ? style.red(`✗ error: ${oneLine(event.preview, 120)}`)
      : style.green(`✓ ${formatDuration(event.durationMs)}`);
    if (openToolLine === event.toolCallId) {
      stderr.write(`  ${verdict}\n`);
      openToolLine = undefined;
    } else {
      closeToolLine();
      const depth = started.get(event.toolCallId)?.depth ?? event.agentPath.length - 1;
      stderr.write(`${indent(depth)}${label(event.agentPath)}  ${style.dim(event.name)} ${verdict}\n`);
    }
    started.delete(event.toolCallId);
  };

  // A compaction is shown like a tool call: its line opens as it starts and gets its result at the end.
  const compactionLine = (path: string[]) => `compaction ${path.join("/")}`;
  const onCompactionStart = (event: EventOf<"compaction_start">) => {
    closeToolLine();
    const depth = event.agentPath.length - 1;
    stderr.write(`${indent(depth)}${label(event.agentPath)}${style.cyan("⟳")} ${compactionStartText(event)}`);
    openToolLine = compactionLine(event.agentPath);
  };
  const onCompactionEnd = (event: EventOf<"compacted" | "compaction_failed">) => {
    const verdict =
      event.type === "compacted"
        ? style.green(`✓ ${compactedText(event)}`)
        : style.yellow(`⚠ ${oneLine(compactionFailedText(event), 240)}`);
    if (openToolLine === compactionLine(event.agentPath)) {
      stderr.write(`  ${verdict}\n`);
      openToolLine = undefined;
      return;
    }
    closeToolLine();
    const depth = event.agentPath.length - 1;
    stderr.write(`${indent(depth)}${label(event.agentPath)}${verdict}\n`);
  };

  return {
    interrupt: closeToolLine,
    event(event: AgentEvent) {
      switch (event.type) {
        case "text_delta":
          onText(event);
          return;
        case "assistant_message":
          onAssistantMessage(event);
          return;
        case "tool_start":
          onToolStart(event);
          return;
        case "tool_progress":
          onToolProgress(event);
          return;
        case "tool_end":
          onToolEnd(event);
          return;
        case "compaction_start":
          onCompactionStart(event);
          return;
        case "compacted":
        case "compaction_failed":
          onCompactionEnd(event);
          return;
        case "hook_run": {
          const text = hookRunText(event);
          if (text === undefined) return;
          closeToolLine();
          const line = event.result === "blocked" ? style.yellow(text) : style.dim(text);
          stderr.write(`${indent(event.agentPath.length - 1)}${label(event.agentPath)}${line}\n`);
          return;
        }
        case "retry":
          closeToolLine();
          stderr.write(
            style.yellow(
              `↻ ${oneLine(event.error, 160)} — retrying in ${formatDuration(event.delayMs)} (attempt ${event.attempt})\n`,
            ),
          );
          return;
        default:
          return;
      }
    },
    finish(outcome: Outcome) {
      closeToolLine();
      if (!streaming && outcome.text !== "") {
        stdout.write(outcome.text);
        stdoutNeedsNewline = !outcome.text.endsWith("\n");
      }
      if (stdoutNeedsNewline) stdout.write("\n");
      stdoutNeedsNewline = false;
      if (options.reportOutcome === false) return;
      const resume = style.dim(
        `session ${outcome.sessionId} (continue with: agentry run --resume ${outcome.sessionId} "…")`,
      );
      switch (outcome.status) {
        case "completed":
          if (outcome.stopReason !== undefined)
            stderr.write(`${style.yellow(`stopped by a hook: ${outcome.stopReason}`)}\n`);
          return;
        case "error":
          stderr.write(`${style.red(`error: ${outcome.error}`)}\n${resume}\n`);
          return;
        case "max_turns":
          stderr.write(
            `${style.yellow(`stopped: reached the turn limit (${outcome.turns} turns)`)}\n${resume}\n`,
          );
          return;
        case "budget_exceeded":
          stderr.write(`${style.yellow(`stopped: ${outcome.reason}`)}\n${resume}\n`);
          return;
        case "aborted":
          stderr.write(`${style.yellow("aborted")}\n${resume}\n`);
          return;
      }
    },
  };
}
