import type { Transcript } from "../../agent/session/transcript.ts";
import type { Message, Usage } from "../../model/messages.ts";
import { formatDuration } from "../../text/format-duration.ts";
import { summarizeArgs } from "../../text/summarize-args.ts";
import type { Style } from "./style.ts";

const RESULT_PREVIEW_LINES = 4;

/** A stored transcript as readable text, for `agentry sessions show <id>`. */
export function renderTranscript(transcript: Transcript, style: Style): string {
  const { header, entries } = transcript;
  const out: string[] = [];
  out.push(style.bold(`session ${header.sessionId}`));
  out.push(
    style.dim(
      `agent ${header.agentName} · model ${header.model} · created ${header.createdAt} · cwd ${header.cwd}` +
        (header.parentSessionId ? ` · parent ${header.parentSessionId}` : ""),
    ),
  );
  for (const entry of entries) {
    out.push("");
    switch (entry.type) {
      case "message":
        out.push(...renderMessage(entry.message, style));
        break;
      case "outcome": {
        const o = entry.outcome;
        const detail = o.status === "error" ? `: ${o.error}` : "reason" in o ? `: ${o.reason}` : "";
        out.push(
          style.bold(`■ ${o.status}${detail}`) +
            style.dim(` · ${o.turns} turns · ${formatUsage(o.usage)} · ${formatDuration(o.durationMs)}`),
        );
        break;
      }
      case "compaction": {
        const plural = entry.replaced === 1 ? "" : "s";
        out.push(
          style.bold(
            `⟳ compacted (${entry.trigger}): the ${entry.replaced} message${plural} before were replaced by this summary`,
          ) +
            style.dim(
              ` · ${entry.tokensBefore.toLocaleString("en-US")} → ${entry.tokensAfter.toLocaleString("en-US")} tokens · by ${entry.model} · ${formatUsage(entry.usage)}`,
            ),
        );
        out.push(...indent([entry.summary]));
        break;
      }
      case "abort":
        out.push(style.yellow(`■ aborted: ${entry.message}`));
        break;
      case "error":
        out.push(style.red(`■ error: ${entry.message}`));
        break;
    }
  }
  for (const warning of transcript.warnings) out.push("", style.yellow(`warning: ${warning}`));
  return `${out.join("\n")}\n`;
}

function renderMessage(message: Message, style: Style): string[] {
  switch (message.role) {
    case "user":
      return [
        style.cyan("› user"),
        ...indent(
          message.content.map((part) => (part.type === "text" ? part.text : `[image ${part.mediaType}]`)),
        ),
      ];
    case "assistant": {
      const lines = [style.green(`● assistant`) + style.dim(` (${message.model})`)];
      for (const part of message.content) {
        if (part.type === "text") lines.push(...indent([part.text]));
        else if (part.type === "reasoning") lines.push(...indent([style.dim(`(thinking) ${part.text}`)]));
        else
          lines.push(
            `  ${style.cyan("→")} ${style.bold(part.name)}  ${summarizeArgs(part.args ?? part.rawArgs)}`,
          );
      }
      if (message.stopReason === "error" || message.stopReason === "aborted") {
        lines.push(style.red(`  ✗ ${message.stopReason}: ${message.errorMessage ?? ""}`));
      }
      return lines;
    }
    case "tool_result":
      return message.content.flatMap((part) => {
        const mark = part.isError ? style.red("✗") : style.green("⎿");
        const body = part.content.split("\n");
        const shown = body.slice(0, RESULT_PREVIEW_LINES);
        const more = body.length - shown.length;
        return [
          `  ${mark} ${style.bold(part.toolName)}`,
          ...shown.map((line) => `    ${line}`),
          ...(more > 0 ? [style.dim(`    … ${more} more lines`)] : []),
        ];
      });
  }
}

function indent(texts: string[]): string[] {
  return texts.flatMap((text) => text.split("\n")).map((line) => `  ${line}`);
}

export function formatUsage(usage: Usage): string {
  const tokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  const cost = usage.cost === undefined ? "" : ` · $${usage.cost.toFixed(4)}`;
  return `${tokens.toLocaleString("en-US")} tokens${cost}`;
}
