import type { Message, UserMessage } from "../../../src/model/messages.ts";

/** Every `<task-notification>` block in `messages`, in order. */
export function notificationsIn(messages: readonly Message[]): string[] {
  return messages
    .filter((message): message is UserMessage => message.role === "user")
    .flatMap((message) => message.content.map((part) => (part.type === "text" ? part.text : "")))
    .filter((text) => text.startsWith("<task-notification>"));
}

export function taskIdOf(notification: string): string | undefined {
  return /<task-id>([^<]+)<\/task-id>/.exec(notification)?.[1];
}

/** The task_id a `task` result names (background start, promotion or wrapped result). */
export function taskIdIn(text: string): string | undefined {
  return /task_id[ ="]+(sub-[a-z0-9-]+)/.exec(text)?.[1];
}
