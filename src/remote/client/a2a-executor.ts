import { userMessage } from "../../model/messages.ts";
import type { ChildExecutor, RemoteChildSpec } from "../../subagents/placement.ts";
import type { ExecutorRef } from "../../tasks/task-record.ts";
import { A2aActivation } from "./a2a-activation.ts";
import { Conversation } from "./a2a-conversation.ts";
import type { RemoteAgent } from "./remote-agent.ts";

/**
 * The executor of one remote child: each activation is one or more A2A tasks in the child's
 * conversation with `agent` (the one its record's `ref` names, for a child known from its record), and
 * `follow` takes up a task from a `ref` (a run that was restarted). The child's history lives with the
 * remote agent, in its context.
 */
export function a2aExecutor(
  agent: RemoteAgent,
  spec: RemoteChildSpec,
  label: string,
  ref?: ExecutorRef,
): ChildExecutor {
  const conversation = ref?.kind === "a2a" ? Conversation.of(ref) : Conversation.fresh();
  const child = { agent, spec, label, conversation };
  return {
    kind: "a2a",
    start: (input) => {
      const prompt = input.prompt === undefined ? [] : [userMessage(input.prompt, input.images)];
      return new A2aActivation(child, input, { kind: "send", messages: [...prompt, ...input.messages] });
    },
    follow: (ref, input) => {
      const taskId = ref.kind === "a2a" ? ref.taskId : undefined;
      if (ref.kind === "a2a" && ref.contextId !== conversation.contextId) {
        const other = { ...child, conversation: Conversation.of(ref) };
        return new A2aActivation(other, input, { kind: "follow", taskId });
      }
      if (taskId !== undefined) conversation.taskId = taskId;
      return new A2aActivation(child, input, { kind: "follow", taskId });
    },
  };
}
