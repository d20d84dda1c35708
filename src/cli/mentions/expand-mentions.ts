import type { UserMessage } from "../../model/messages.ts";
import { findMentions } from "./find-mentions.ts";
import type { Attachment, MentionContext, MentionResolver } from "./mention.ts";

export interface ExpandedPrompt {
  /** The prompt as typed, then what each mention adds, in the order of the mentions. */
  message: UserMessage;
  /** One line per inlined mention, for the person (`src/app.ts (42 lines)`). */
  notes: string[];
}

/**
 * The user message of a prompt with its `@` mentions resolved, as Claude Code inlines them: the text
 * stays as typed and each mention's content follows it. Each mention goes to the first resolver that
 * takes it; one no resolver takes stays text. A resolver's `MentionError` (a denied path …) rejects
 * the whole prompt, so nothing is sent without what the person asked to include.
 */
export async function expandMentions(
  prompt: string,
  resolvers: readonly MentionResolver[],
  context: MentionContext,
): Promise<ExpandedPrompt> {
  const attachments: Attachment[] = [];
  for (const mention of findMentions(prompt)) {
    for (const resolver of resolvers) {
      const attachment = await resolver.resolve(mention, context);
      if (attachment === undefined) continue;
      attachments.push(attachment);
      break;
    }
  }
  return {
    message: {
      role: "user",
      content: [{ type: "text", text: prompt }, ...attachments.flatMap((attachment) => attachment.parts)],
    },
    notes: attachments.map((attachment) => attachment.note),
  };
}
