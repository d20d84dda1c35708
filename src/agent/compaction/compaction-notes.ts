import type { Message } from "../../model/messages.ts";

/** Children's ids (`newSessionId({ prefix: "sub" })`): `sub-20250114-093012-k3f9qa`. */
const TASK_ID = /\bsub-\d{8}-\d{6}-[a-z0-9]{6}\b/g;
/** Argument names that hold a file or folder the call works on. */
const PATH_KEYS = ["path", "file_path", "filePath", "notebook_path"];
/** More than this many of either, and only the most recently mentioned are listed. */
const MAX_LISTED = 50;
const FILES_HEADER = "Files the replaced turns worked on (and with which tools):";
/** A line of that list: `- src/a.ts (read, edit)`. */
const FILE_LINE = /^- (.+) \(([^()]+)\)$/;

export interface CompactionReferences {
  /** Subagent task ids, in order of last mention. */
  taskIds: string[];
  /** Paths tool calls worked on, in order of last use, with the tools that used each. */
  files: Array<{ path: string; tools: string[] }>;
}

/**
 * The task ids and file paths a stretch of history mentions. A summary is the model's writing and may
 * drop one; these are listed beside it, so a task can still be continued, waited on or cancelled, and
 * a file found again, whatever the summary kept.
 */
export function compactionReferences(messages: readonly Message[]): CompactionReferences {
  const taskIds = new Map<string, true>();
  const files = new Map<string, Set<string>>();
  const noteIds = (text: string) => {
    for (const id of text.match(TASK_ID) ?? []) {
      taskIds.delete(id);
      taskIds.set(id, true);
    }
  };
  const noteFile = (path: string, tools: readonly string[]) => {
    const known = files.get(path) ?? new Set<string>();
    for (const tool of tools) known.add(tool);
    files.delete(path);
    files.set(path, known);
  };
  for (const message of messages) {
    for (const part of message.content) {
      switch (part.type) {
        case "text":
          noteIds(part.text);
          // An earlier compaction's list: carried on, or the files it named would drop out of the next.
          for (const file of listedFiles(part.text)) noteFile(file.path, file.tools);
          break;
        case "tool_result":
          noteIds(part.content);
          break;
        case "tool_call": {
          noteIds(part.rawArgs);
          for (const path of pathsOf(part.args)) noteFile(path, [part.name]);
          break;
        }
        default:
          break;
      }
    }
  }
  return {
    taskIds: [...taskIds.keys()].slice(-MAX_LISTED),
    files: [...files].slice(-MAX_LISTED).map(([path, tools]) => ({ path, tools: [...tools] })),
  };
}

/** The references as lines for the summary message; empty when there are none. */
export function formatReferences(references: CompactionReferences): string {
  const lines: string[] = [];
  if (references.taskIds.length > 0) {
    lines.push(`Subagent task ids in the replaced turns: ${references.taskIds.join(", ")}`);
  }
  if (references.files.length > 0) {
    lines.push(FILES_HEADER);
    for (const file of references.files) lines.push(`- ${file.path} (${file.tools.join(", ")})`);
  }
  return lines.join("\n");
}

function listedFiles(text: string): Array<{ path: string; tools: string[] }> {
  const at = text.lastIndexOf(FILES_HEADER);
  if (at === -1) return [];
  const listed: Array<{ path: string; tools: string[] }> = [];
  for (const line of text
    .slice(at + FILES_HEADER.length)
    .split("\n")
    .slice(1)) {
    const match = FILE_LINE.exec(line);
    if (!match?.[1] || !match[2]) break;
    listed.push({ path: match[1], tools: match[2].split(", ") });
  }
  return listed;
}

function pathsOf(args: unknown): string[] {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return [];
  const record = args as Record<string, unknown>;
  return PATH_KEYS.flatMap((key) => {
    const value = record[key];
    return typeof value === "string" && value.trim() !== "" ? [value.trim()] : [];
  });
}
