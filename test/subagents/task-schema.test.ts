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
