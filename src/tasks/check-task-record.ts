import { SAFE_ID } from "./safe-id.ts";
import { ACTIVITY_MAX_TOOLS, INBOX_MAX_MESSAGES, MESSAGE_MAX_CHARS } from "./task-limits.ts";
import type { TaskRecord } from "./task-record.ts";
import { TASK_REASONS, TASK_STATUSES } from "./task-status.ts";

/**
 * The fast check of a stored record: `true` only for a value `taskRecordSchema` accepts unchanged
 * (every field it requires, of its type, and no field it does not know, which zod would strip).
 * Anything else is left to the schema, which words the error — or accepts the record after all (an
 * unknown field). So this check may refuse more than the schema, never accept more: zod stays the
 * single source of truth, and test/tasks/check-task-record.test.ts runs every kind of bad record
 * through both. Why it exists: zod validated 10,000 records in ~100 ms in a new process (cold JIT),
 * a quarter of `agentry tasks list`; this takes ~15–25 ms there, and does not load zod.
 */
export function isTaskRecord(value: unknown): value is TaskRecord {
  if (!isPlainObject(value)) return false;
  // Written out flat (no helpers taking callbacks): in a new process this runs cold, 10,000 times.
  let fields = REQUIRED_FIELDS;
  if (value.result !== undefined) {
    if (typeof value.result !== "string") return false;
    fields++;
  }
  if (value.error !== undefined) {
    if (typeof value.error !== "string") return false;
    fields++;
  }
  if (value.reason !== undefined) {
    if (!isOneOf(value.reason, TASK_REASONS)) return false;
    fields++;
  }
  if (value.deliveredAt !== undefined) {
    if (!isTimestamp(value.deliveredAt)) return false;
    fields++;
  }
  if (value.usage !== undefined) {
    if (!isUsage(value.usage)) return false;
    fields++;
  }
  if (value.model !== undefined) {
    if (typeof value.model !== "string") return false;
    fields++;
  }
  if (value.agentPath !== undefined) {
    if (!isStringArray(value.agentPath)) return false;
    fields++;
  }
  if (value.ref !== undefined) {
    if (!isExecutorRef(value.ref)) return false;
    fields++;
  }
  if (value.activity !== undefined) {
    if (!isActivity(value.activity)) return false;
    fields++;
  }
  if (value.inbox !== undefined) {
    if (!isInbox(value.inbox)) return false;
    fields++;
  }
  return (
    // Own fields, all known: a field the schema does not know (it would strip it), an optional one
    // present as `undefined` (`exactOptional` refuses it) or one inherited makes the counts differ.
    Object.keys(value).length === fields &&
    isId(value.taskId) &&
    typeof value.agentType === "string" &&
    isId(value.parentAgentId) &&
    isId(value.parentSessionId) &&
    typeof value.childSessionId === "string" &&
    typeof value.description === "string" &&
    isOneOf(value.status, TASK_STATUSES) &&
    typeof value.cancelRequested === "boolean" &&
    isTimestamp(value.createdAt) &&
    isTimestamp(value.updatedAt) &&
    typeof value.owner === "string" &&
    typeof value.background === "boolean"
  );
}

/** `z.iso.datetime()`'s pattern (UTC with `Z`, seconds required, any fraction); a test pins it to zod's. */
export const TIMESTAMP =
  /^(?:(?:\d\d[2468][048]|\d\d[13579][26]|\d\d0[48]|[02468][048]00|[13579][26]00)-02-29|\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|(?:02)-(?:0[1-9]|1\d|2[0-8])))T(?:(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z))$/;

/** The record's fields that are not `exactOptional`. */
const REQUIRED = [
  "taskId",
  "agentType",
  "parentAgentId",
  "parentSessionId",
  "childSessionId",
  "description",
  "status",
  "cancelRequested",
  "createdAt",
  "updatedAt",
  "owner",
  "background",
] as const satisfies readonly (keyof TaskRecord)[];
const OPTIONAL = [
  "result",
  "error",
  "reason",
  "deliveredAt",
  "usage",
  "model",
  "agentPath",
  "ref",
  "activity",
  "inbox",
] as const;
// Fails to compile when the schema gains a field this check does not know, or one changes from or to
// optional: add it to the check above.
type Optional = { [K in keyof TaskRecord]-?: undefined extends TaskRecord[K] ? K : never }[keyof TaskRecord];
const sameFields: [
  Exclude<keyof TaskRecord, (typeof REQUIRED)[number] | (typeof OPTIONAL)[number]>,
  Exclude<Optional, (typeof OPTIONAL)[number]>,
  Exclude<(typeof OPTIONAL)[number], Optional>,
] extends [never, never, never]
  ? true
  : false = true;
void sameFields;
const REQUIRED_FIELDS = REQUIRED.length;

function isUsage(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  let fields = 4;
  if (value.cost !== undefined) {
    if (!isNumber(value.cost)) return false;
    fields++;
  }
  return (
    Object.keys(value).length === fields &&
    isNumber(value.input) &&
    isNumber(value.output) &&
    isNumber(value.cacheRead) &&
    isNumber(value.cacheWrite)
  );
}

/** `executorRefSchema`: one of its kinds, each with exactly its fields (strict objects). */
function isExecutorRef(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value).length;
  if (value.kind === "a2a") {
    if (value.taskId !== undefined && !isText(value.taskId)) return false;
    return keys === (value.taskId === undefined ? 3 : 4) && isText(value.url) && isText(value.contextId);
  }
  if (value.kind === "queue") return keys === 3 && isText(value.queue) && isText(value.jobId);
  return false;
}

/** `taskActivitySchema`: a strict object, its tools at most `ACTIVITY_MAX_TOOLS`. */
function isActivity(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  let fields = 4;
  if (value.cost !== undefined) {
    if (!isCount(value.cost)) return false;
    fields++;
  }
  if (value.lastTool !== undefined) {
    if (!isTool(value.lastTool)) return false;
    fields++;
  }
  if (value.waiting !== undefined) {
    const { waiting } = value;
    if (!isPlainObject(waiting) || Object.keys(waiting).length !== 2) return false;
    if (!isOneOf(waiting.reason, WAIT_REASONS) || !isNumber(waiting.limit)) return false;
    fields++;
  }
  if (value.compacting !== undefined) {
    if (!isCount(value.compacting)) return false;
    fields++;
  }
  const { tools } = value;
  if (!Array.isArray(tools) || tools.length > ACTIVITY_MAX_TOOLS) return false;
  for (const tool of tools) if (!isTool(tool)) return false;
  return (
    Object.keys(value).length === fields &&
    Number.isSafeInteger(value.turns) &&
    (value.turns as number) >= 0 &&
    isCount(value.tokensIn) &&
    isCount(value.tokensOut)
  );
}

const WAIT_REASONS = ["limit", "retry_after", "rate_limit"];

function isTool(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    Object.keys(value).length === 2 &&
    typeof value.name === "string" &&
    typeof value.arg === "string"
  );
}

/** `inbox`: at most `INBOX_MAX_MESSAGES` strict `{id, text, at}`. */
function isInbox(value: unknown): boolean {
  if (!Array.isArray(value) || value.length > INBOX_MAX_MESSAGES) return false;
  for (const message of value) {
    if (!isPlainObject(message) || Object.keys(message).length !== 3) return false;
    const { text } = message;
    if (!isId(message.id) || !isTimestamp(message.at)) return false;
    if (typeof text !== "string" || text === "" || text.length > MESSAGE_MAX_CHARS) return false;
  }
  return true;
}

function isStringArray(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== "string") return false;
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isText = (value: unknown) => typeof value === "string" && value !== "";
const isNumber = (value: unknown) => typeof value === "number" && Number.isFinite(value);
const isCount = (value: unknown) => isNumber(value) && (value as number) >= 0;
const isId = (value: unknown) => typeof value === "string" && SAFE_ID.test(value);
const isTimestamp = (value: unknown) => typeof value === "string" && TIMESTAMP.test(value);
const isOneOf = (value: unknown, options: readonly string[]) =>
  typeof value === "string" && options.includes(value);
