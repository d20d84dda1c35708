import { z } from "zod";
import { type Outcome, outcomeSchema } from "../../contracts/outcome.ts";
import type { Message } from "../../model/messages.ts";
import { usageSchema } from "../../model/usage-schema.ts";

/**
 * The transcript file format, parsed with zod because a transcript is read back from disk (a trust
 * boundary). Bump `TRANSCRIPT_VERSION` when a line's shape changes, and add a step to
 * `TRANSCRIPT_MIGRATIONS` (`transcript-migrations.ts`) plus a fixture of the old version.
 */
export const TRANSCRIPT_VERSION = 2;

const usage = usageSchema;

const text = z.object({ type: z.literal("text"), text: z.string() });
const reasoning = z.object({
  type: z.literal("reasoning"),
  text: z.string(),
  signature: z.string().exactOptional(),
  // Added without a version bump: readers strip keys they do not know, so older ones still load it.
  item: z.object({ id: z.string(), encryptedContent: z.string().exactOptional() }).exactOptional(),
});
const pixels = z.number().int().positive().exactOptional();
/** An image in memory, and where messages cross to a queue worker: its bytes inline, in base64. */
const image = z.object({
  type: z.literal("image"),
  data: z.string(),
  mediaType: z.string(),
  width: pixels,
  height: pixels,
});
/**
 * An image as a transcript line holds it (v2): its bytes inline (as v1 wrote them), or the sha256 of
 * its file under `.agentry/blobs/`, so a screenshot does not make every reader of the file parse megabytes.
 */
export const SHA256_HEX = /^[0-9a-f]{64}$/;
const storedImage = z
  .object({
    type: z.literal("image"),
    data: z.string().exactOptional(),
    blob: z.string().regex(SHA256_HEX, "must be a sha256 in hex").exactOptional(),
    mediaType: z.string(),
    width: pixels,
    height: pixels,
  })
  .refine((part) => (part.data === undefined) !== (part.blob === undefined), "needs either data or blob");
// `args` is undefined when the model's argument text was not JSON, and JSON has no undefined: such a
// call is stored without the key (its `rawArgs` keeps the text), and must read back, or the reader
// would drop the assistant message and leave its tool results answering nothing.
const toolCall = z
  .object({
    type: z.literal("tool_call"),
    id: z.string(),
    name: z.string(),
    args: z.unknown().optional(),
    rawArgs: z.string(),
  })
  .transform(({ args, ...call }) => ({ ...call, args }));
const toolResultOf = <Image extends z.ZodType>(imagePart: Image) =>
  z.object({
    type: z.literal("tool_result"),
    toolCallId: z.string(),
    toolName: z.string(),
    content: z.string(),
    isError: z.boolean(),
    images: z.array(imagePart).exactOptional(),
  });

const messageOf = <Image extends z.ZodType<{ type: "image" }>>(imagePart: Image) =>
  z.discriminatedUnion("role", [
    z.object({ role: z.literal("user"), content: z.array(z.union([text, imagePart])) }),
    assistant,
    z.object({ role: z.literal("tool_result"), content: z.array(toolResultOf(imagePart)) }),
  ]);

const assistant = z.object({
  role: z.literal("assistant"),
  content: z.array(z.discriminatedUnion("type", [text, reasoning, toolCall])),
  stopReason: z.enum(["stop", "tool_calls", "length", "error", "aborted"]),
  usage,
  model: z.string(),
  errorMessage: z.string().exactOptional(),
  retryable: z.boolean().exactOptional(),
});

const message = messageOf(image);
const storedMessage = messageOf(storedImage);

/** A message as it crosses to and from a queue worker (images inline). */
export const messageSchema = message;
/** A message as a transcript line holds it (images inline, or by their blob's sha256). */
export const storedMessageSchema = storedMessage;
export type StoredMessage = z.infer<typeof storedMessage>;
export type StoredImagePart = z.infer<typeof storedImage>;

export const headerSchema = z.object({
  type: z.literal("header"),
  version: z.literal(TRANSCRIPT_VERSION),
  sessionId: z.string(),
  parentSessionId: z.string().exactOptional(),
  agentName: z.string(),
  model: z.string(),
  cwd: z.string(),
  createdAt: z.string(),
});

/**
 * Older messages were replaced by a summary. The replaced messages stay in the file (the full history);
 * a reader rebuilds the compacted form from this entry (`transcriptHistory`). Added to v1 without a
 * version bump: no older file has one, and an older reader skips the line with a warning and resumes
 * the full history, which is still a valid conversation.
 */
const compaction = z.object({
  type: z.literal("compaction"),
  /** The user message that replaced them, exactly as the model reads it. */
  summary: z.string(),
  /** Messages of the history (as it stood) that the summary replaced, from its start. */
  replaced: z.number().int().nonnegative(),
  /** Messages kept verbatim after the summary: the history's last `kept` at that moment. */
  kept: z.number().int().nonnegative(),
  trigger: z.enum(["auto", "manual"]),
  tokensBefore: z.number(),
  tokensAfter: z.number(),
  /** The model that wrote the summary, and what that call used. */
  model: z.string(),
  usage,
  at: z.string(),
});

const at = z.string();
const entryOf = <M extends z.ZodType>(messagePart: M) =>
  z.discriminatedUnion("type", [
    z.object({ type: z.literal("message"), message: messagePart, at }),
    compaction,
    z.object({ type: z.literal("outcome"), outcome: outcomeSchema, at }),
    z.object({ type: z.literal("abort"), message: z.string(), at }),
    z.object({ type: z.literal("error"), message: z.string(), at }),
  ]);
/** A line of a transcript file, as written (images possibly by reference). */
export const storedEntrySchema = entryOf(storedMessage);
const entrySchema = entryOf(message);

export type TranscriptHeader = z.infer<typeof headerSchema>;
/** An entry as a reader gets it: every image's bytes loaded (`parseTranscript`). */
export type TranscriptEntry = z.infer<typeof entrySchema>;
export type StoredTranscriptEntry = z.infer<typeof storedEntrySchema>;
/** A `compaction` entry without its time (`Session.compact` adds it). */
export type CompactionRecord = Omit<z.infer<typeof compaction>, "at" | "type">;

/** A non-message entry, as passed to `Session.record` (the session adds `at`). */
export type SessionRecord =
  | { type: "outcome"; outcome: Outcome }
  | { type: "abort"; message: string }
  | { type: "error"; message: string };

// Compile-time proof that the schemas describe exactly the in-memory types they store.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Stored<Role extends Message["role"]> = Extract<z.infer<typeof message>, { role: Role }>;
type Memory<Role extends Message["role"]> = Extract<Message, { role: Role }>;
const schemasMatchTypes: [
  Same<Stored<"user">, Memory<"user">>,
  Same<Stored<"assistant">, Memory<"assistant">>,
  Same<Stored<"tool_result">, Memory<"tool_result">>,
] = [true, true, true];
void schemasMatchTypes;
