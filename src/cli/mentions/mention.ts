import { AgentryError } from "../../errors/agentry-error.ts";
import type { ImagePart, TextPart } from "../../model/messages.ts";
import type { ToolContext } from "../../tools/tool.ts";

/** One `@…` in a prompt: `@src/app.ts`, `@"my notes.md"`, `@github:repo://x` (an MCP resource). */
export interface Mention {
  /** As typed, with the `@` (and quotes). */
  text: string;
  /** What it names: the text after `@`, quotes removed. */
  target: string;
  /**
   * The same without trailing punctuation (`@src/app.ts,` → `src/app.ts`), when it differs: a resolver
   * tries `target` first, then this.
   */
  trimmed?: string;
}

/** What a mention adds to the user message: parts the model reads, and one line for the person. */
export interface Attachment {
  parts: Array<TextPart | ImagePart>;
  /** e.g. `src/app.ts (42 lines)`, shown on stderr before the turn runs. */
  note: string;
}

/**
 * What resolvers get: a tool context for the root agent (workspace, file operations, the run's
 * permission gate as `ask`, its command policy), so a mention reads through the same rules as the
 * root's own tools, and the turn's signal.
 */
export type MentionContext = ToolContext;

/**
 * One kind of mention: files and folders (`file-mention.ts`); images and MCP resources plug in the
 * same way. `resolve` returns undefined when the mention is not of its kind or names nothing it knows
 * (`@types/node`, `@john` stay text for the next resolver, and at the end the prompt keeps them as
 * typed), and throws `MentionError` to refuse one it knows but may not or cannot give — then nothing
 * is sent.
 */
export interface MentionResolver {
  readonly kind: string;
  resolve(mention: Mention, context: MentionContext): Promise<Attachment | undefined>;
}

/**
 * A mention that names something which may not or cannot be inlined: nothing is sent to the model.
 * The person must change the prompt or the rules (`run` exits 2; `chat` says so and waits).
 */
export class MentionError extends AgentryError {
  override readonly name = "MentionError";
  readonly kind = "user";
}
