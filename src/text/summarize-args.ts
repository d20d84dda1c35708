/** Keys whose value best describes a call, in order of preference. */
const SUMMARY_KEYS = ["command", "path", "file_path", "pattern", "query", "url", "description", "prompt"];

/** A one-line description of a tool call's arguments for display: `npm test`, `src/a.ts`. */
export function summarizeArgs(args: unknown, maxLength = 80): string {
  if (args === undefined || args === null) return "";
  if (typeof args !== "object") return oneLine(String(args), maxLength);
  const record = args as Record<string, unknown>;
  for (const key of SUMMARY_KEYS) {
    const value = record[key];
    if (typeof value === "string" && value.trim() !== "") return oneLine(value, maxLength);
  }
  const first = Object.values(record).find((value) => typeof value === "string");
  return typeof first === "string" ? oneLine(first, maxLength) : oneLine(JSON.stringify(args), maxLength);
}

export function oneLine(text: string, maxLength: number): string {
  const flat = text.replace(/\s*\n\s*/g, " ⏎ ").trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}
