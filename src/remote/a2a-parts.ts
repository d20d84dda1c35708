import { randomUUID } from "node:crypto";
import { type Message, type Part, Role } from "@a2a-js/sdk";
import type { TextPart, UserMessage } from "../model/messages.ts";

/** The A2A message that carries `messages` (a prompt and what was sent meanwhile) to a remote agent. */
export function a2aMessage(
  messages: readonly UserMessage[],
  where: { contextId: string; taskId?: string | undefined },
): Message {
  return {
    messageId: randomUUID(),
    contextId: where.contextId,
    taskId: where.taskId ?? "",
    role: Role.ROLE_USER,
    parts: messages.flatMap((message) => message.content.map(toPart)),
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function toPart(part: UserMessage["content"][number]): Part {
  if (part.type === "text") return textPart(part.text);
  return {
    content: { $case: "raw", value: Buffer.from(part.data, "base64") },
    metadata: undefined,
    filename: "",
    mediaType: part.mediaType,
  };
}

export function textPart(text: string): Part {
  return {
    content: { $case: "text", value: text },
    metadata: undefined,
    filename: "",
    mediaType: "text/plain",
  };
}

/** The readable text of A2A parts: text as it is, data as JSON, files by name or URL. */
export function partsText(parts: readonly Part[] | undefined): string {
  return (parts ?? [])
    .map((part) => {
      const content = part.content;
      switch (content?.$case) {
        case "text":
          return content.value;
        case "data":
          return JSON.stringify(content.value);
        case "url":
          return `[file ${part.filename || content.value} (${part.mediaType || "unknown type"}) at ${content.value}]`;
        case "raw":
          return `[file ${part.filename || "(unnamed)"} (${part.mediaType || "unknown type"}, ${content.value.length} bytes)]`;
        default:
          return "";
      }
    })
    .filter((text) => text !== "")
    .join("\n");
}

/** An agent's incoming A2A message as agentry's user message (files become lines that name them). */
export function userMessageOf(message: Message): UserMessage {
  const content: Array<TextPart | UserMessage["content"][number]> = [];
  for (const part of message.parts) {
    const value = part.content;
    if (value?.$case === "raw" && part.mediaType.startsWith("image/"))
      content.push({
        type: "image",
        data: Buffer.from(value.value).toString("base64"),
        mediaType: part.mediaType,
      });
    else {
      const text = partsText([part]);
      if (text !== "") content.push({ type: "text", text });
    }
  }
  return { role: "user", content };
}

/** True when the message carries nothing to read. */
export function isEmptyMessage(message: UserMessage): boolean {
  return message.content.every((part) => part.type === "text" && part.text.trim() === "");
}
