import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RecordedRequest } from "../../test/support/model-server.ts";
import type { ServerReply } from "../../test/support/server-reply.ts";
import { toolResultCount } from "./anthropic-wire.ts";

/**
 * The workload of issue 13's comparison: a parent delegates to 3 general-purpose children (the full
 * coding tool set) that each read 5 files, ~18 KB per child, all 5 in one message, and report; then
 * the parent answers. 8 model calls: 2 for the parent, 2 per child.
 */
export interface Workload {
  children: number;
  filesPerChild: number;
  /** Characters per file: 5 × 3,600 ≈ 18 KB per child. */
  fileChars: number;
}

export const WORKLOAD: Workload = { children: 3, filesPerChild: 5, fileChars: 3_600 };

export const ROOT_PROMPT =
  "Summarize the three parts of this project under src/: for each part, how many functions its files export. Delegate one part to each subagent.";
const CHILD_PREFIX = "Workload part";
const REPORT_LINE = "exports 12 functions (compute_*), each multiplying its argument by a constant.";

/** The workload's files in `workspace`, as paths relative to it, one list per child. */
export async function writeWorkloadFiles(
  workspace: string,
  workload: Workload = WORKLOAD,
): Promise<string[][]> {
  const parts: string[][] = [];
  for (let part = 1; part <= workload.children; part++) {
    const dir = join(workspace, "src", `part${part}`);
    await mkdir(dir, { recursive: true });
    const files: string[] = [];
    for (let index = 1; index <= workload.filesPerChild; index++) {
      const path = `src/part${part}/module${index}.ts`;
      await writeFile(join(workspace, path), moduleText(part * 100 + index, workload.fileChars));
      files.push(path);
    }
    parts.push(files);
  }
  return parts;
}

/** Deterministic TypeScript of about `chars` characters. */
function moduleText(seed: number, chars: number): string {
  let text = `// Module ${seed}: arithmetic helpers generated for the economy benchmark.\n\n`;
  for (let n = 0; text.length < chars; n++) {
    text += `/** Multiplies \`value\` by ${seed + n} and adds the offset of step ${n}. */\nexport function compute_${n}(value: number, offset = ${n}): number {\n  return value * ${seed + n} + offset;\n}\n\n`;
  }
  return text.slice(0, chars);
}

/**
 * The scripted model. A child is recognised by its first message (the task prompt the parent wrote),
 * not by its system prompt, so changing prompts cannot break the script. The children's first replies
 * wait until all of them have asked: they run at the same time, so none can read another's cache write.
 */
export function workloadScript(parts: string[][]): (request: RecordedRequest) => Promise<ServerReply> {
  let arrived = 0;
  let release: () => void = () => {};
  const allArrived = new Promise<void>((resolve) => {
    release = resolve;
  });
  return async (request) => {
    const first = firstUserText(request.body);
    const done = toolResultCount(request.body) > 0;
    const part = first.startsWith(CHILD_PREFIX)
      ? Number(first.slice(CHILD_PREFIX.length).trim().split(":")[0])
      : 0;
    if (part > 0) {
      if (done) return { text: parts[part - 1]!.map((path) => `- ${path}: ${REPORT_LINE}`).join("\n") };
      if (++arrived === parts.length) release();
      await Promise.race([allArrived, timeout(10_000, "the children's first calls did not all arrive")]);
      return { toolCalls: parts[part - 1]!.map((path) => ({ name: "read", args: { path } })) };
    }
    if (done) return { text: `Each of the ${parts.length} parts exports 60 functions.` };
    return {
      toolCalls: parts.map((files, index) => ({
        name: "task",
        args: {
          description: `Summarize part ${index + 1}`,
          prompt: `${CHILD_PREFIX} ${index + 1}: read these files and report, for each, how many functions it exports and what they do:\n${files.join("\n")}`,
          subagent_type: "general-purpose",
        },
      })),
    };
  };
}

function timeout(ms: number, message: string): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(message)), ms).unref());
}

/** The text of the request's first user message. */
function firstUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : [];
  const content = messages[0]?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const block = (content as Array<{ type?: unknown; text?: unknown }>).find((item) => item.type === "text");
  return typeof block?.text === "string" ? block.text : "";
}
