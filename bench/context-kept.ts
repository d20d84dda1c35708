// Context kept: the parent's context after "read these 20 files and report", delegated to one
// explore child versus doing the 20 reads itself. Measured on the parent's last request as the
// model server received it (real Anthropic adapter): characters of its messages, and of the whole
// body (system prompt and tool schemas too); tokens ≈ characters ÷ 4.
//   node bench/context-kept.ts
import { copyFile, mkdir, readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runAgentLoop } from "../src/agent/loop.ts";
import { Session } from "../src/agent/session/session.ts";
import { buildSystemPrompt } from "../src/agent/system-prompt.ts";
import { userText } from "../src/model/messages.ts";
import { startModelServer } from "../test/support/model-server.ts";
import { isChildRequest } from "./support/anthropic-wire.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { contextScript } from "./support/context-script.ts";
import { type Row, row } from "./support/row.ts";
import { serverModel, subagentTree } from "./support/subagent-tree.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface ContextOptions extends BenchArgs {
  /** How many files the task reads (default 20, taken from this repo's src/agent and src/tools). */
  files?: number;
}

const FIGURE = "context kept";
const SOURCE_ROOT = fileURLToPath(new URL("../", import.meta.url));

interface ParentContext {
  messageChars: number;
  bodyChars: number;
}

export async function measureContextKept(options: ContextOptions = {}): Promise<Row[]> {
  const count = options.files ?? 20;
  const { dir, remove } = await tempDir("context");
  try {
    const files = await copySources(dir, count);
    const report = await reportOf(dir, files);
    const undelegated = await parentContext(dir, files, report, false);
    const delegated = await parentContext(dir, files, report, true);
    const tokens = (chars: number) => Math.round(chars / 4);
    return [
      row(FIGURE, "transcript kept, delegated ÷ undelegated", "%", [
        (100 * delegated.messageChars) / undelegated.messageChars,
      ]),
      row(FIGURE, "transcript tokens, undelegated", "tok", [tokens(undelegated.messageChars)]),
      row(FIGURE, "transcript tokens, delegated", "tok", [tokens(delegated.messageChars)], {
        note: `the child's report is ${report.length} characters (one line per file: lines and exports); the task result wraps it with task_id, status and metrics.`,
      }),
      row(FIGURE, "whole request kept (+ system prompt, tool schemas)", "%", [
        (100 * delegated.bodyChars) / undelegated.bodyChars,
      ]),
    ].map((line, i) =>
      i === 0
        ? {
            ...line,
            goal: { max: 10 },
            note: `${count} files of this repo (${Math.round(undelegated.messageChars / 1000)}k characters as read results); measured on the parent's last request body at the model server (JSON of its messages); tokens ≈ characters ÷ 4. Deterministic: one run.`,
          }
        : line,
    );
  } finally {
    await remove();
  }
}

/** Characters of the parent's last request: its messages, and the whole body. */
async function parentContext(
  workspace: string,
  files: string[],
  report: string,
  delegate: boolean,
): Promise<ParentContext> {
  const answer = `Summary of the ${files.length} files written.`;
  const server = await startModelServer(contextScript({ files, report, answer, delegate }));
  try {
    const { config, runtime } = subagentTree({
      workspace,
      model: serverModel(server.anthropicBaseUrl),
      systemPrompt: await buildSystemPrompt({ workspace }),
    });
    const session = await Session.create({
      workspace,
      agentName: "main",
      model: config.model.id,
      persist: false,
    });
    await session.append(
      userText(`Read these ${files.length} files and report what each exports:\n${files.join("\n")}`),
    );
    const outcome = await runAgentLoop(config, session, () => {});
    await runtime.shutdown();
    if (outcome.status !== "completed" || outcome.text !== answer)
      throw new Error(
        `context-kept (${delegate ? "delegated" : "undelegated"}): the root ended ${outcome.status}`,
      );
    const last = server.requests.filter((request) => !isChildRequest(request)).at(-1);
    if (!last) throw new Error("context-kept: the parent made no request");
    return { messageChars: JSON.stringify(last.body.messages).length, bodyChars: last.rawBody.length };
  } finally {
    await server.close();
  }
}

/** Copies the first `count` TypeScript files of src/agent and src/tools into the workspace. */
async function copySources(workspace: string, count: number): Promise<string[]> {
  const candidates: string[] = [];
  for (const folder of ["src/agent", "src/tools"]) {
    const names = (await readdir(join(SOURCE_ROOT, folder))).filter((name) => name.endsWith(".ts")).sort();
    candidates.push(...names.map((name) => `${folder}/${name}`));
  }
  if (candidates.length < count)
    throw new Error(`context-kept: only ${candidates.length} source files to read`);
  const files = candidates.slice(0, count);
  for (const file of files) {
    await mkdir(dirname(join(workspace, file)), { recursive: true });
    await copyFile(join(SOURCE_ROOT, file), join(workspace, file));
  }
  return files;
}

/** The child's report: one line per file, as a good explore agent would write it. */
async function reportOf(workspace: string, files: string[]): Promise<string> {
  const lines = [`Read all ${files.length} files. Each, with its size and exports:`];
  for (const file of files) {
    const text = await readFile(join(workspace, file), "utf8");
    const exports = [...text.matchAll(/export (?:async )?(?:function|const|class|interface|type) (\w+)/g)]
      .map((match) => match[1])
      .slice(0, 4);
    lines.push(`- ${file}: ${text.split("\n").length} lines; exports ${exports.join(", ") || "nothing"}`);
  }
  return lines.join("\n");
}

await benchMain(import.meta, measureContextKept);
