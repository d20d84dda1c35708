import { open, readFile, realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerSet } from "../mcp/mcp-servers.ts";
import { describeImage, imagePartOf, imageTooLarge, sniffImage } from "../model/images.ts";
import type { ImagePart, TextPart } from "../model/messages.ts";
import { evaluate } from "../permissions/evaluate.ts";
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
 * The attachments of a prompt's `@` mentions that are image files (`@shot.png`, `@"my shot.png"`,
 * relative to the workspace) or MCP resources (`@server:uri`, server a connected one), in the order they
 * appear. The prompt's text is left as it is (the model reads the mention and gets what it names after
 * it). `mentions` are the mentions handled here; other mentions (text files, folders) are left to the
 * caller. A mention that names an image or a resource that cannot be attached is a `problem`.
 */
export async function promptAttachments(
  prompt: string,
  context: AttachmentContext,
): Promise<{ parts: Attachment[]; mentions: string[]; problems: string[] }> {
  const parts: Attachment[] = [];
  const mentions: string[] = [];
  const problems: string[] = [];
  for (const written of mentionsIn(prompt)) {
    // `@shot.png,` at the end of a clause names `shot.png`.
    const mention = stripTrailing(written);
    const resource = resourceMention(mention, context);
    if (resource !== undefined) {
      mentions.push(mention);
      try {
        const read = await context.mcp?.readResource(resource.server, resource.uri, context.signal);
        if (read === undefined) continue;
        parts.push({ type: "text", text: `[@${mention}]\n${read.text}` }, ...read.images);
      } catch (error) {
        problems.push(`@${mention}: ${error instanceof Error ? error.message : String(error)}`);
      }
      continue;
    }
    const path = resolve(context.workspace, mention);
    const inside = relative(context.workspace, path);
    if (outside(inside)) continue;
    const loaded = await loadImage(path, `@${mention}`);
    if (loaded.notAnImage) continue;
    mentions.push(mention);
    // As the file tools do: a link inside the workspace may not lead out of it.
    const real = await realpath(path).catch(() => path);
    if (outside(relative(await realpath(context.workspace), real))) {
      problems.push(
        `@${mention}: ${inside} is a link that leads outside the workspace; attach it with --image.`,
      );
    } else if (context.rules !== undefined && evaluate(context.rules, "read", inside) === "deny") {
      problems.push(`@${mention}: reading ${inside} is denied by the permission rules.`);
    } else if (loaded.problem !== undefined) problems.push(`@${mention}: ${loaded.problem}`);
    else parts.push(...loaded.parts);
  }
  return { parts, mentions, problems };
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

function outside(relativePath: string): boolean {
  return relativePath === ".." || relativePath.startsWith(`..${sep}`) || isAbsolute(relativePath);
}

/** `@token` and `@"token with spaces"`, at the start or after a space. */
function mentionsIn(prompt: string): string[] {
  return [...prompt.matchAll(/(?:^|\s)@(?:"([^"]+)"|(\S+))/g)].map((match) => match[1] ?? match[2] ?? "");
}

/** `server:uri` where `server` is a connected MCP server. */
function resourceMention(
  mention: string,
  context: AttachmentContext,
): { server: string; uri: string } | undefined {
  const match = /^([A-Za-z0-9_-]+):(.+)$/.exec(mention);
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  const server = match[1];
  if (!context.mcp?.servers.some((info) => info.name === server)) return undefined;
  return { server, uri: match[2] };
}

function stripTrailing(text: string): string {
  return text.replace(/[.,;:!?)\]]+$/, "");
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
