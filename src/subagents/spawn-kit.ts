import { visibleTools } from "../permissions/derive.ts";
import type { CallerScope } from "./caller-scope.ts";
import { spawnerHooks } from "./spawner-hooks.ts";
import type { SpawnKit, SubagentRuntime } from "./subagent-runtime.ts";
import { createTaskCancelTool } from "./task-cancel-tool.ts";
import { createTaskListTool } from "./task-list-tool.ts";
import { createTaskOutputTool } from "./task-output-tool.ts";
import { createTaskSendTool } from "./task-send-tool.ts";
import { createTaskTool } from "./task-tool.ts";
import { createTaskWaitTool } from "./task-wait-tool.ts";

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
