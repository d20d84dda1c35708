import { errorMessage } from "../../text/error-message.ts";
import type { AgentFormat, AgentSourceKind } from "../definition.ts";
import { loadAgentryAgent } from "./agentry.ts";
import { loadClaudeAgent } from "./claude.ts";
import { loadCodexAgent } from "./codex.ts";
import type { LoadResult } from "./load-context.ts";
import { loadOpenCodeAgent } from "./opencode.ts";
import { MAX_AGENT_FILE_BYTES } from "./size-limits.ts";

export interface LoadAgentFileOptions {
  format: AgentFormat;
  kind?: AgentSourceKind;
  /** Where relative `workspace.path` values start (agentry / AgentScope files). */
  baseDir?: string;
}

/** Dispatches to the loader of one format. Pure: never touches the file system, never throws. */
export function loadAgentFile(text: string, path: string, options: LoadAgentFileOptions): LoadResult {
  try {
    return dispatch(text, path, options);
  } catch (error) {
    // A loader bug must not take down discovery of every other agent; it shows up in `agents check`.
    const message = errorMessage(error);
    return {
      diagnostics: [
        {
          severity: "error",
          file: path,
          message: `internal error while loading: ${message}`,
          action: "skipped the file",
        },
      ],
    };
  }
}

function dispatch(text: string, path: string, options: LoadAgentFileOptions): LoadResult {
  // Bytes, as discovery counts them on disk: a file of multi-byte text has fewer characters.
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_AGENT_FILE_BYTES) {
    return {
      diagnostics: [
        {
          severity: "error",
          file: path,
          message: `is ${Math.round(bytes / 1024)} KiB; agent files are read up to ${MAX_AGENT_FILE_BYTES / 1024} KiB`,
          action: "skipped the file",
        },
      ],
    };
  }
  const kind = options.kind ?? "project";
  switch (options.format) {
    case "claude":
      return loadClaudeAgent(text, path, kind);
    case "opencode":
      return loadOpenCodeAgent(text, path, kind);
    case "codex":
      return loadCodexAgent(text, path, kind);
    case "agentry":
    case "agentscope":
      return loadAgentryAgent(text, path, {
        kind,
        format: options.format,
        ...(options.baseDir === undefined ? {} : { baseDir: options.baseDir }),
      });
  }
}
