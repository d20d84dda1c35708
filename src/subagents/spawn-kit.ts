import { visibleTools } from "../permissions/derive.ts";
import type { CallerScope } from "./caller-scope.ts";
import { spawnerHooks } from "./spawner-hooks.ts";
import type { SpawnKit, SubagentRuntime } from "./subagent-runtime.ts";
import { createTaskTool } from "./tools/task.ts";
import { createTaskCancelTool } from "./tools/task-cancel.ts";
import { createTaskListTool } from "./tools/task-list.ts";
import { createTaskOutputTool } from "./tools/task-output.ts";
import { createTaskSendTool } from "./tools/task-send.ts";
import { createTaskWaitTool } from "./tools/task-wait.ts";

/**
 * The spawn family of one agent — `task`, `task_send`, `task_wait`, `task_output`, `task_cancel`,
 * `task_list` — minus what its rules hide (they all ask the `task` permission), and the hooks that
 * deliver its children's notifications.
 */
export function createSpawnKit(runtime: SubagentRuntime, caller: CallerScope): SpawnKit {
  const tools = [
    createTaskTool(runtime, caller),
    createTaskSendTool(runtime, caller),
    createTaskWaitTool(runtime),
    createTaskOutputTool(runtime),
    createTaskCancelTool(runtime),
    createTaskListTool(runtime),
  ];
  return { tools: visibleTools(tools, caller.gate.rules), hooks: spawnerHooks(runtime, caller) };
}
