import { open, readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerSet } from "../mcp/mcp-servers.ts";
import { describeImage, imagePartOf, imageTooLarge, sniffImage } from "../model/images.ts";
import type { ImagePart, TextPart } from "../model/messages.ts";
import type { Ruleset } from "../permissions/types.ts";
import { UsageError } from "./errors.ts";

/** What the user's side of a chat uses of the run's MCP servers. */
export type McpAccess = Pick<McpServerSet, "servers" | "readResource" | "getPrompt">;

/** What a user's prompt brings besides its text: images and MCP resources, each introduced by a line. */
export type Attachment = TextPart | ImagePart;

export interface AttachmentContext {
  /** The workspace: `@path` mentions are relative to it. */
  workspace: string;
  /** Where `--image` paths and pasted paths are relative to (the user's shell). */
  cwd: string;
  /** The root's rules: a mention of a path they deny reading is refused (asking is consent enough). */
  rules?: Ruleset;
  /** The run's MCP servers, for `@server:uri`. */
  mcp?: McpAccess | undefined;
  signal?: AbortSignal;
}

/**
 * `--image <path>` (repeatable): each file must be a PNG, JPEG, GIF or WebP image small enough to send;
 * anything else is a usage error naming it.
 */
export async function imageFiles(
  paths: readonly string[],
  context: AttachmentContext,
): Promise<Attachment[]> {
  const parts: Attachment[] = [];
  for (const path of paths) {
    const absolute = resolve(context.cwd, path);
    const loaded = await loadImage(absolute, path);
    if (loaded.problem !== undefined) throw new UsageError(`--image ${path}: ${loaded.problem}`);
    parts.push(...loaded.parts);
  }
  return parts;
}

/**
 * A line that is only a path to an image file (what a terminal pastes when a file is dropped on it:
 * quoted, with `\ ` escapes, or a `file://` URL), as an attachment; undefined for anything else.
 */
export async function pastedImage(
  line: string,
  context: AttachmentContext,
): Promise<{ parts: Attachment[]; path: string } | { problem: string } | undefined> {
  let text = line.trim();
  if (/^(['"]).+\1$/.test(text)) text = text.slice(1, -1);
  else text = text.replace(/\\ /g, " ");
  if (text.startsWith("file://")) {
    try {
      text = fileURLToPath(text);
    } catch {
      return undefined;
    }
  }
  if (text === "" || /\n/.test(text) || !/\.(png|jpe?g|gif|webp)$/i.test(text)) return undefined;
  const loaded = await loadImage(resolve(context.cwd, text), text);
  if (loaded.notAnImage) return undefined;
  if (loaded.problem !== undefined) return { problem: loaded.problem };
  return { parts: loaded.parts, path: text };
}

/**
 * An image file as attachments (a line naming it, then the image), or why it cannot be one;
 * `notAnImage` for a path that is missing, a folder, or not an image by its bytes (text mentions).
 */
async function loadImage(
  absolute: string,
  what: string,
): Promise<{ parts: Attachment[]; problem?: string; notAnImage?: boolean }> {
  const info = await stat(absolute).catch(() => undefined);
  if (info === undefined || !info.isFile()) {
    return { parts: [], notAnImage: true, problem: info === undefined ? "no such file." : "not a file." };
  }
  // The head first: a mention of a large file that is no image is never read whole.
  const head = await readHead(absolute);
  const image = head === undefined ? undefined : sniffImage(head);
  if (image === undefined)
    return { parts: [], notAnImage: true, problem: "is not a PNG, JPEG, GIF or WebP image." };
  const tooLarge = imageTooLarge(image, info.size, what);
  if (tooLarge !== undefined) return { parts: [], problem: tooLarge };
  const handle = await readFile(absolute).catch(() => undefined);
  if (handle === undefined) return { parts: [], problem: "cannot be read." };
  return {
    parts: [
      { type: "text", text: `[${what}: ${describeImage(image, handle.length)}]` },
      imagePartOf(handle, image),
    ],
  };
}

async function readHead(path: string): Promise<Uint8Array | undefined> {
  const file = await open(path, "r").catch(() => undefined);
  if (file === undefined) return undefined;
  try {
    const buffer = new Uint8Array(65_536);
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
