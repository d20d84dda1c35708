import type { RecordedRequest } from "../../test/support/model-server.ts";
import type { ServerReply } from "../../test/support/server-reply.ts";
import { isChildRequest, toolResultCount } from "./anthropic-wire.ts";

export interface ContextScriptOptions {
  files: string[];
  /** The child's final report (delegated) — what the parent keeps. */
  report: string;
  /** The parent's final answer. */
  answer: string;
  delegate: boolean;
}

const readAll = (files: string[]): ServerReply => ({
  toolCalls: files.map((path) => ({ name: "read", args: { path } })),
});

/**
 * "Read these files and report": undelegated, the root reads every file itself in one message;
 * delegated, it starts one explore child that does the reads and answers with `report`.
 */
export function contextScript(options: ContextScriptOptions): (request: RecordedRequest) => ServerReply {
  const { files, report, answer, delegate } = options;
  return (request) => {
    const done = toolResultCount(request.body) > 0;
    if (isChildRequest(request)) return done ? { text: report } : readAll(files);
    if (done) return { text: answer };
    if (!delegate) return readAll(files);
    return {
      toolCalls: [
        {
          name: "task",
          args: {
            description: "Read and summarize files",
            prompt: `Read these ${files.length} files and report, for each, its size and what it exports:\n${files.join("\n")}`,
            subagent_type: "explore",
          },
        },
      ],
    };
  };
}
