/**
 * Limits that keep a record small (it is rewritten with every write to its session's file), in a
 * module without zod: the record's schema and the fast read-side check both use them.
 */
export const ACTIVITY_MAX_TOOLS = 8;
export const INBOX_MAX_MESSAGES = 16;
export const MESSAGE_MAX_CHARS = 20_000;
