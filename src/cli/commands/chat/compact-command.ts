import { compactSession } from "../../../agent/compaction/compact-session.ts";
import type { EventBody } from "../../../agent/emitter.ts";
import { toolSpecs } from "../../../agent/request.ts";
import { compactedText, compactionFailedText, compactionStartText } from "../../render/compaction-text.ts";
import type { SlashContext, SlashOutcome } from "./slash-context.ts";

/**
 * `/compact [focus]`: replaces the conversation's older turns by a summary now (the latest turn stays
 * as it is), with what the summary should dwell on. The next turn continues from the compacted form,
 * and `--resume` does too; the transcript keeps every message. Ctrl-C abandons it, leaving all as it was.
 */
export async function compactCommand(focus: string, context: SlashContext): Promise<SlashOutcome> {
  const { conversation, say } = context;
  if (conversation.messageCount === 0) {
    say("Nothing to compact yet: this session has no messages.");
    return "continue";
  }
  const session = await conversation.open();
  const { config, compaction } = context;
  const show = (event: EventBody) => {
    if (event.type === "compaction_start") say(`${capitalized(compactionStartText(event))}…`);
    else if (event.type === "compacted")
      say(`Compacted: ${compactedText(event)}. The next turn continues from the summary.`);
    else if (event.type === "compaction_failed") say(capitalized(compactionFailedText(event)));
  };
  await context.beforeCompact?.(session.id, focus);
  const result = await compactSession({
    session,
    system: config.systemPrompt,
    tools: toolSpecs(config.tools),
    model: context.model,
    ...(compaction.model === undefined ? {} : { summaryModel: compaction.model }),
    ...(compaction.contextWindow === undefined ? {} : { contextWindow: compaction.contextWindow }),
    ...(focus === "" ? {} : { focus }),
    signal: context.signal,
    emit: show,
  });
  if (result.status === "aborted") say("Compaction interrupted; the conversation is as it was.");
  return "continue";
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
