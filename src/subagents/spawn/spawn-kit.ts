import type { Hooks } from "../../agent/hooks.ts";
import { visibleTools } from "../../permissions/derive.ts";
import type { AnyTool } from "../../tools/tool.ts";
import { createTaskTool } from "../tools/task.ts";
import { createTaskCancelTool } from "../tools/task-cancel.ts";
import { createTaskListTool } from "../tools/task-list.ts";
import { createTaskOutputTool } from "../tools/task-output.ts";
import { createTaskSendTool } from "../tools/task-send.ts";
import { createTaskWaitTool } from "../tools/task-wait.ts";
import type { CallerScope } from "../tree/caller-scope.ts";
import type { TaskApi } from "../tree/task-api.ts";

/** The spawn tools of one agent and the hooks that feed it its children's notifications. */
export interface SpawnKit {
  tools: AnyTool[];
  hooks: Hooks;
}

/**
 * The spawn family of one agent — `task`, `task_send`, `task_wait`, `task_output`, `task_cancel`,
 * `task_list` — minus what its rules hide (they all ask the `task` permission), with its hooks.
 */
export function createSpawnKit(tasks: TaskApi, caller: CallerScope, hooks: Hooks): SpawnKit {
  const tools = [
    createTaskTool(tasks, caller),
    createTaskSendTool(tasks, caller),
    createTaskWaitTool(tasks),
    createTaskOutputTool(tasks),
    createTaskCancelTool(tasks),
    createTaskListTool(tasks),
  ];
  return { tools: visibleTools(tools, caller.gate.rules), hooks };
}
