import { readFileSync } from "node:fs";
import { z } from "zod";
import type { AgentDefinition } from "../../agents/definition.ts";
import { readImageFile } from "../../tools/read/read-image.ts";
import type { AnyTool } from "../../tools/tool.ts";
import { DEFAULT_SUBAGENT_TYPE } from "../spawn/spawnable-agents.ts";
import type { CallerScope } from "../tree/caller-scope.ts";
import type { TaskApi } from "../tree/task-api.ts";
import { spawnTool } from "./spawn-tool.ts";

const TEMPLATE = readFileSync(new URL("./task.md", import.meta.url), "utf8").trim();

/** Long agent descriptions (some carry whole `<example>` dialogues) are cut so the roster stays readable. */
const MAX_ROSTER_DESCRIPTION = 1000;
/** Images a `task` call may hand on: every one is in every later request of the child. */
const MAX_TASK_IMAGES = 20;

export const taskSchema = z.object({
  description: z.string().min(1).describe("3-5 words, shown to the user."),
  prompt: z.string().min(1).describe("The whole task and what to return."),
  subagent_type: z
    .string()
    .min(1)
    .optional()
    .describe(`An agent listed above (default ${DEFAULT_SUBAGENT_TYPE}).`),
  model: z
    .string()
    .min(1)
    .optional()
    .describe("provider:model or an alias (sonnet, opus, haiku, inherit); default: the agent's, else yours."),
  task_id: z.string().min(1).optional().describe("Continue this child; `prompt` is its next message."),
  images: z
    .array(z.string().min(1))
    .max(MAX_TASK_IMAGES)
    .optional()
    .describe("Image files (workspace paths) the child sees with the prompt."),
  run_in_background: z
    .boolean()
    .optional()
    .describe("Return the task_id at once (default: the agent's setting, else false)."),
  fork: z
    .union([z.enum(["none", "all"]), z.number().int().min(0).max(1000)])
    .optional()
    .describe(
      'What the child starts with: "none" (default: your prompt only), "all" your conversation, or your last N turns (without tool calls).',
    ),
});

/** The `task` description for a caller who may start these agents: the usage rules plus `- name: description` lines. */
export function taskDescription(spawnable: readonly AgentDefinition[]): string {
  const roster = spawnable.map(rosterLine);
  const agents = roster.length > 0 ? roster.join("\n") : "(none: your permission rules allow no agent)";
  return TEMPLATE.replace("{{agents}}", agents);
}

function rosterLine(definition: AgentDefinition): string {
  const flat = definition.description.replace(/\s+/g, " ").trim();
  const text = flat.length > MAX_ROSTER_DESCRIPTION ? `${flat.slice(0, MAX_ROSTER_DESCRIPTION)}…` : flat;
  const tools =
    definition.tools === undefined
      ? ""
      : definition.tools.length === 0
        ? " (tools: none)"
        : ` (tools: ${definition.tools.join(", ")})`;
  return `- ${definition.name}: ${text}${tools}`;
}

/** The `task` tool of one agent in the tree: it starts (or continues) that agent's children. */
export function createTaskTool(tasks: TaskApi, caller: CallerScope): AnyTool {
  const description = taskDescription(tasks.spawnable(caller.gate.rules));
  return spawnTool(tasks, { name: "task", description, schema: taskSchema }, async (args, ctx) => {
    // Read before the child exists: a path that is no image fails the call, not the child.
    const images = await Promise.all((args.images ?? []).map((path) => readImageFile(ctx, path)));
    return tasks.task(
      caller,
      {
        description: args.description,
        prompt: args.prompt,
        ...(images.length === 0 ? {} : { images }),
        ...(args.subagent_type === undefined ? {} : { subagentType: args.subagent_type }),
        ...(args.model === undefined ? {} : { model: args.model }),
        ...(args.task_id === undefined ? {} : { taskId: args.task_id }),
        ...(args.run_in_background === undefined ? {} : { background: args.run_in_background }),
        ...(args.fork === undefined ? {} : { fork: args.fork }),
      },
      ctx,
    );
  });
}
