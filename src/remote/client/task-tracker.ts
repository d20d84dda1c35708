import { type Message, Role, type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import type { Usage } from "../../model/messages.ts";
import { partsText } from "../a2a-parts.ts";
import { type ForwardedEvent, readProgress } from "../progress-metadata.ts";

/** How one remote task (or a bare message) ended, as far as the child is concerned. */
export type TaskEnd =
  | { state: "completed"; text: string }
  /** The agent asks something; its next message answers it (same task). `asked` marks the question. */
  | { state: "input-required"; text: string; taskId: string; asked: string }
  /** FAILED, REJECTED or AUTH_REQUIRED: `error` says which, with the agent's words. */
  | { state: "failed"; text: string; error: string }
  | { state: "canceled"; text: string };

export type Payload = NonNullable<StreamResponse["payload"]>;

/**
 * Follows one remote task through its snapshots and updates (streamed, or polled with GetTask) and
 * says when it reached a state the child stops at. It gathers the answer the agent gives — its
 * artifacts (appended chunks joined), else its last status message — and the agentry progress
 * the update metadata carries.
 */
export class TaskTracker {
  taskId: string | undefined;
  private readonly url: string;
  private readonly artifacts = new Map<string, string>();
  private statusText = "";
  private historyText = "";
  private usageSeen: Usage | undefined;
  private turnsSeen: number | undefined;
  private readonly onEvents: (events: ForwardedEvent[]) => void;
  /** The question this message answers: the task still shows it until the agent goes on. */
  private readonly answered: string | undefined;

  constructor(url: string, onEvents: (events: ForwardedEvent[]) => void, answered?: string) {
    this.url = url;
    this.onEvents = onEvents;
    this.answered = answered;
  }

  /** The usage and turns the agent reported (agentry serve does, in its final update). */
  get usage(): Usage | undefined {
    return this.usageSeen;
  }

  get turns(): number | undefined {
    return this.turnsSeen;
  }

  apply(payload: Payload): TaskEnd | undefined {
    switch (payload.$case) {
      case "message":
        // A bare message answers the request: there is no task to follow.
        return { state: "completed", text: partsText(payload.value.parts) };
      case "task":
        return this.applyTask(payload.value);
      case "statusUpdate": {
        const update = payload.value;
        this.taskId ||= update.taskId;
        this.progress(update.metadata);
        return this.applyStatus(update.status);
      }
      case "artifactUpdate": {
        const { artifact, append } = payload.value;
        this.taskId ||= payload.value.taskId;
        if (artifact !== undefined) {
          const text = partsText(artifact.parts);
          const before = append ? (this.artifacts.get(artifact.artifactId) ?? "") : "";
          this.artifacts.set(artifact.artifactId, before + text);
        }
        this.progress(payload.value.metadata);
        return undefined;
      }
    }
  }

  applyTask(task: Task): TaskEnd | undefined {
    this.taskId = task.id;
    for (const artifact of task.artifacts ?? [])
      this.artifacts.set(artifact.artifactId, partsText(artifact.parts));
    const answer = [...(task.history ?? [])].reverse().find((message) => message.role === Role.ROLE_AGENT);
    if (answer !== undefined) this.historyText = partsText(answer.parts);
    this.progress(task.metadata, false);
    return this.applyStatus(task.status);
  }

  /** The answer so far: the artifacts, else the latest status message, else the agent's last message. */
  text(): string {
    const artifacts = [...this.artifacts.values()].filter((text) => text.trim() !== "");
    if (artifacts.length > 0) return artifacts.join("\n\n");
    return this.statusText !== "" ? this.statusText : this.historyText;
  }

  private applyStatus(status: Task["status"]): TaskEnd | undefined {
    if (status === undefined) return undefined;
    const said = messageText(status.message);
    if (said !== "") this.statusText = said;
    const text = this.text();
    switch (status.state) {
      case TaskState.TASK_STATE_COMPLETED:
        return { state: "completed", text };
      case TaskState.TASK_STATE_INPUT_REQUIRED: {
        const asked = questionMark(status);
        if (asked === this.answered) return undefined;
        return { state: "input-required", text: said || text, taskId: this.taskId ?? "", asked };
      }
      case TaskState.TASK_STATE_CANCELED:
        return { state: "canceled", text };
      case TaskState.TASK_STATE_FAILED:
        return {
          state: "failed",
          text,
          error: `the remote agent at ${this.url} failed the task${said ? `: ${said}` : ""}`,
        };
      case TaskState.TASK_STATE_REJECTED:
        return {
          state: "failed",
          text,
          error: `the remote agent at ${this.url} rejected the task${said ? `: ${said}` : ""}`,
        };
      case TaskState.TASK_STATE_AUTH_REQUIRED:
        return {
          state: "failed",
          text,
          error: `the remote agent at ${this.url} needs authentication agentry cannot give it (AUTH_REQUIRED)${said ? `: ${said}` : ""}; configure the credentials in its headers`,
        };
      default:
        return undefined;
    }
  }

  /** Reads agentry progress; events of a whole-task snapshot are old news, so only live updates emit. */
  private progress(metadata: Record<string, unknown> | undefined, live = true): void {
    const progress = readProgress(metadata);
    if (progress.usage !== undefined) this.usageSeen = progress.usage;
    if (progress.turns !== undefined) this.turnsSeen = progress.turns;
    if (live && progress.events !== undefined) this.onEvents(progress.events);
  }
}

/** What tells one question of a task from the next: its message's id, else when it was asked. */
function questionMark(status: NonNullable<Task["status"]>): string {
  return status.message?.messageId || status.timestamp || "";
}

function messageText(message: Message | undefined): string {
  return message === undefined ? "" : partsText(message.parts);
}
