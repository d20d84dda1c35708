import { expect, test } from "vitest";
import { toolSpecs } from "../../src/agent/request.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { rootTree } from "./support/subagent-harness.ts";

test("the task tool's JSON schema", () => {
  const { config } = rootTree({ workspace: "/tmp", model: scriptedModel([]) });
  const task = toolSpecs(config.tools).find((spec) => spec.name === "task");
  expect(task?.inputSchema).toMatchInlineSnapshot(`
    {
      "properties": {
        "description": {
          "description": "A short (3-5 word) description of the task, shown to the user.",
          "minLength": 1,
          "type": "string",
        },
        "fork": {
          "anyOf": [
            {
              "enum": [
                "none",
                "all",
              ],
              "type": "string",
            },
            {
              "maximum": 1000,
              "minimum": 0,
              "type": "integer",
            },
          ],
          "description": "What the child starts with: "none" (default: only your prompt), "all" of your conversation, or its last N turns (user messages and your final answers, without tool calls or results).",
        },
        "model": {
          "description": "Model for this child: a provider:model id or an alias (sonnet, opus, haiku, inherit). Default: the agent's own model, else yours.",
          "minLength": 1,
          "type": "string",
        },
        "prompt": {
          "description": "The complete task for the subagent. It sees nothing of your conversation: include the goal, what you know, the files or names involved, and exactly what to return.",
          "minLength": 1,
          "type": "string",
        },
        "run_in_background": {
          "description": "Run the child in the background: task returns its task_id at once and a <task-notification> brings its result when it finishes. Default: the agent's own setting, else false (wait for the result).",
          "type": "boolean",
        },
        "subagent_type": {
          "description": "The agent to launch, one of those listed above (default general-purpose).",
          "minLength": 1,
          "type": "string",
        },
        "task_id": {
          "description": "Continue the child with this task_id (from an earlier task result) with its whole history; \`prompt\` is its next message.",
          "minLength": 1,
          "type": "string",
        },
      },
      "required": [
        "description",
        "prompt",
      ],
      "type": "object",
    }
  `);
});

test("the spawn family comes together, and each task_* tool has a fixed JSON schema", () => {
  const { config } = rootTree({ workspace: "/tmp", model: scriptedModel([]) });
  const specs = toolSpecs(config.tools).filter((spec) => spec.name.startsWith("task"));
  expect(specs.map((spec) => spec.name)).toEqual([
    "task",
    "task_send",
    "task_wait",
    "task_output",
    "task_cancel",
    "task_list",
  ]);
  for (const spec of specs) expect(spec.description.length).toBeGreaterThan(100);
  expect(
    Object.fromEntries(specs.slice(1).map((spec) => [spec.name, spec.inputSchema])),
  ).toMatchInlineSnapshot(`
    {
      "task_cancel": {
        "properties": {
          "task_id": {
            "description": "The subagent to stop: a task_id you started.",
            "minLength": 1,
            "type": "string",
          },
        },
        "required": [
          "task_id",
        ],
        "type": "object",
      },
      "task_list": {
        "properties": {
          "status": {
            "description": "Only tasks with this status.",
            "enum": [
              "PENDING",
              "RUNNING",
              "COMPLETED",
              "FAILED",
              "CANCELLED",
            ],
            "type": "string",
          },
        },
        "type": "object",
      },
      "task_output": {
        "properties": {
          "block": {
            "description": "Wait until it has finished before answering (default false).",
            "type": "boolean",
          },
          "task_id": {
            "description": "The subagent to look at: a task_id you started.",
            "minLength": 1,
            "type": "string",
          },
          "timeout_s": {
            "description": "With block: seconds to wait at most (default 30, clamped to 1–3600).",
            "type": "number",
          },
        },
        "required": [
          "task_id",
        ],
        "type": "object",
      },
      "task_send": {
        "properties": {
          "interrupt": {
            "description": "Stop the running child's current step so it reads the message at once (default false: at its next turn).",
            "type": "boolean",
          },
          "message": {
            "description": "What to tell it: a correction, more context, a follow-up question or request.",
            "minLength": 1,
            "type": "string",
          },
          "task_id": {
            "description": "The subagent to message: a task_id you started.",
            "minLength": 1,
            "type": "string",
          },
        },
        "required": [
          "task_id",
          "message",
        ],
        "type": "object",
      },
      "task_wait": {
        "properties": {
          "mode": {
            "description": "all (default): return when every one has finished; any: as soon as one has.",
            "enum": [
              "any",
              "all",
            ],
            "type": "string",
          },
          "task_ids": {
            "description": "The subagents to wait for (default: yours that are running or whose results you have not seen).",
            "items": {
              "minLength": 1,
              "type": "string",
            },
            "type": "array",
          },
          "timeout_s": {
            "description": "Seconds to wait at most (default 30, clamped to 1–3600).",
            "type": "number",
          },
        },
        "type": "object",
      },
    }
  `);
});
