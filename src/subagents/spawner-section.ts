import type { AgentRegistry } from "../agents/agent-registry.ts";
import type { TaskRecord } from "../tasks/task-record.ts";
import type { CallerScope } from "./caller-scope.ts";
import { spawnableAgents } from "./spawnable-agents.ts";

const MAX_DESCRIPTION = 160;

/**
 * The system-prompt section of an agent that may spawn: the agents it may start and its latest tasks.
 * Nothing in it changes between calls unless a task does (no elapsed times), so prompt caches hold.
 */
export function spawnerSection(
  registry: AgentRegistry,
  caller: CallerScope,
  recent: readonly TaskRecord[],
): string {
  const roster = spawnableAgents(registry, caller.gate.rules).map(
    (definition) => `- ${definition.name}: ${short(definition.description)}`,
  );
  const lines = ["# Subagents", "", "Agents you can start with the `task` tool:", ...roster];
  if (recent.length > 0) {
    lines.push(
      "",
      `Your latest subagent tasks (newest first, at most 10):`,
      ...recent.map(
        (record) =>
          `- ${record.taskId} · ${record.agentType} · ${record.status}${record.reason ? ` (${record.reason})` : ""} · "${record.description}"`,
      ),
      "",
      "Finished tasks reach you as <task-notification> messages. task_output and task_wait show results, task_send messages a child, task_cancel stops one; task with a task_id continues a finished one.",
    );
  }
  return lines.join("\n");
}

function short(description: string): string {
  const flat = description.replace(/\s+/g, " ").trim();
  return flat.length > MAX_DESCRIPTION ? `${flat.slice(0, MAX_DESCRIPTION)}…` : flat;
}
