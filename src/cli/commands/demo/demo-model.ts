import type { ModelRequest } from "../../../model/model.ts";
import { type ScriptedModel, type ScriptedReply, scriptedModel } from "../../../testing/scripted-model.ts";
import { EXPLORE_JOBS } from "./explore-jobs.ts";
import { estimateTokens, firstUserText, replyIndex, requestChars, toolHistory } from "./tool-history.ts";

export const DEMO_MODEL_ID = "scripted:demo";

export const DEMO_PROMPT =
  "Give me an overview of this repository: how the source is laid out, how to run the tests, " +
  "and any TODOs or known bugs.";

export interface DemoModelOptions {
  /** Milliseconds each reply takes to start, so the tree is visible; 0 in fast tests. */
  paceMs: number;
}

/**
 * The demo's scripted model: one function of the request plays the parent and each child. A request
 * whose first user message is a job's prompt is that child's; every other request is the parent's.
 * Usage is estimated from the request as a provider would bill it (characters / 4), so the token
 * numbers of the tree and the report are real measures of what each context held.
 */
export function demoModel(options: DemoModelOptions): ScriptedModel {
  return scriptedModel(
    (request) => {
      const reply = replyFor(request, options.paceMs);
      const output = (reply.text ?? "").length + JSON.stringify(reply.toolCalls ?? []).length;
      return {
        ...reply,
        usage: { input: estimateTokens(requestChars(request)), output: estimateTokens(output) },
      };
    },
    { id: DEMO_MODEL_ID },
  );
}

function replyFor(request: ModelRequest, paceMs: number): ScriptedReply {
  const prompt = firstUserText(request.messages);
  const reply = replyIndex(request.messages);
  const history = toolHistory(request.messages);
  const index = EXPLORE_JOBS.findIndex((job) => job.prompt === prompt);
  const job = EXPLORE_JOBS[index];
  if (job !== undefined) {
    // Children work at different speeds, so they finish one by one.
    return { ...job.next(reply, history), delayMs: Math.round(paceMs * (0.6 + 0.35 * index)) };
  }
  if (reply === 0) {
    return {
      text: "I'll have three explore agents look at the layout, the tests and the open problems in parallel.",
      toolCalls: EXPLORE_JOBS.map((child) => ({
        name: "task",
        args: { description: child.description, prompt: child.prompt, subagent_type: "explore" },
      })),
      delayMs: paceMs,
    };
  }
  return { text: parentAnswer(history.filter((record) => record.name === "task")), delayMs: paceMs };
}

const SECTIONS = ["Layout", "Tests", "TODOs and the bug"];

/** The parent's answer: each child's report under a heading, read back out of its wrapped result. */
function parentAnswer(reports: Array<{ content: string; isError: boolean }>): string {
  const sections = reports.map((report, index) => {
    const title = SECTIONS[index] ?? `Task ${index + 1}`;
    if (report.isError) return `## ${title}\nThe explorer did not finish: ${report.content.split("\n")[0]}`;
    const body =
      /<task_result[^>]*>\n([\s\S]*?)\n<\/task_result>/.exec(report.content)?.[1] ?? report.content;
    return `## ${title}\n${body.trim()}`;
  });
  return ["Here is the overview, from the reports of the three explorers.", ...sections].join("\n\n");
}
