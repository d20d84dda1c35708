/**
 * Caps on what one agent file may hold. Real files are far below them (the largest of 360 real ones is
 * 18 KiB, with under 1 KiB of front matter); past them a file is refused with an error, so a huge or
 * hostile file cannot exhaust memory, flood `agents check` or overflow the call stack.
 */

/** Larger files are refused unread. */
export const MAX_AGENT_FILE_BYTES = 1024 * 1024;

/** Front matter past this many characters is not parsed. */
export const MAX_FRONT_MATTER_CHARS = 64 * 1024;

/** Entries of one `tools` or `disallowedTools` value. */
export const MAX_TOOL_ENTRIES = 256;

/** Top-level keys of one file (each unknown one is a diagnostic). */
export const MAX_KEYS = 200;
