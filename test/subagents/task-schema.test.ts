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
          "description": "3-5 words, shown to the user.",
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
          "description": "What the child starts with: "none" (default: your prompt only), "all" your conversation, or your last N turns (without tool calls).",
        },
        "images": {
          "description": "Image files (workspace paths) the child sees with the prompt.",
          "items": {
            "minLength": 1,
            "type": "string",
          },
          "maxItems": 20,
          "type": "array",
        },
        "model": {
          "description": "provider:model or an alias (sonnet, opus, haiku, inherit); default: the agent's, else yours.",
          "minLength": 1,
          "type": "string",
        },
        "prompt": {
          "description": "The whole task and what to return.",
          "minLength": 1,
          "type": "string",
        },
        "run_in_background": {
          "description": "Return the task_id at once (default: the agent's setting, else false).",
          "type": "boolean",
        },
        "subagent_type": {
          "description": "An agent listed above (default general-purpose).",
          "minLength": 1,
          "type": "string",
        },
        "task_id": {
          "description": "Continue this child; \`prompt\` is its next message.",
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
