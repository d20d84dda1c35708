import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ImagePart, Message, TextPart, ToolResultPart } from "../../model/messages.ts";
import { ensureStateDir, stateDir } from "../../state/state-dir.ts";
import { SHA256_HEX, type StoredImagePart, type StoredMessage } from "./transcript-schema.ts";

/**
 * Images live beside the transcripts, one file per content (`.agentry/blobs/<sha256>`), and a
 * transcript line names them: a line stays small whatever it shows, the same screenshot read twice is
 * stored once, and a resumed session sends the same bytes again.
 */
export function blobsDir(workspace: string): string {
  return join(stateDir(workspace), "blobs");
}

/** Stores base64 data as a blob and returns its sha256; undefined when it cannot be written. */
export type BlobWriter = (base64: string) => string | undefined;
/** The base64 of a blob whose content matches its sha256, or undefined (missing, damaged). */
export type BlobReader = (sha256: string) => string | undefined;

/** Writes blobs under a workspace's `.agentry/blobs/`, each once; a failure is not a lost line. */
export function blobWriter(workspace: string): BlobWriter {
  const dir = blobsDir(workspace);
  let ready = false;
  return (base64) => {
    try {
      if (!ready) {
        ensureStateDir(workspace, dir);
        ready = true;
      }
      const bytes = Buffer.from(base64, "base64");
      const sha = createHash("sha256").update(bytes).digest("hex");
      const path = join(dir, sha);
      // A temporary name then a rename: a killed process never leaves half a blob under its sha.
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, bytes);
      renameSync(temporary, path);
      return sha;
    } catch {
      return undefined;
    }
  };
}

/** Reads the blobs of the `.agentry/` a transcript lives in (`<state>/sessions/<id>.jsonl`). */
export function blobReader(dir: string): BlobReader {
  return (sha) => {
    if (!SHA256_HEX.test(sha)) return undefined;
    try {
      const bytes = readFileSync(join(dir, sha));
      return createHash("sha256").update(bytes).digest("hex") === sha ? bytes.toString("base64") : undefined;
    } catch {
      return undefined;
    }
  };
}

/** A message as its transcript line holds it: each image's bytes moved to a blob (inline when that fails). */
export function storedForm(message: Message, write: BlobWriter): StoredMessage {
  const store = (image: ImagePart): StoredImagePart => {
    const sha = write(image.data);
    if (sha === undefined) return image;
    const { data: _, ...rest } = image;
    return { ...rest, blob: sha };
  };
  switch (message.role) {
    case "user":
      if (!message.content.some((part) => part.type === "image")) return message;
      return {
        ...message,
        content: message.content.map((part) => (part.type === "image" ? store(part) : part)),
      };
    case "tool_result":
      if (!message.content.some((part) => part.images?.length)) return message;
      return {
        ...message,
        content: message.content.map((part) =>
          part.images === undefined ? part : { ...part, images: part.images.map(store) },
        ),
      };
    case "assistant":
      return message;
  }
}

/**
 * A stored message with its images' bytes loaded. An image whose blob is missing or damaged (someone
 * cleaned `.agentry/`) becomes a line of text saying so: the conversation goes on without it.
 */
export function loadedForm(message: StoredMessage, read: BlobReader | undefined): Message {
  switch (message.role) {
    case "user":
      return {
        ...message,
        content: message.content.map((part) => (part.type === "image" ? loadImage(part, read) : part)),
      };
    case "tool_result":
      return { ...message, content: message.content.map((part) => loadResultImages(part, read)) };
    case "assistant":
      return message;
  }
}

function loadImage(part: StoredImagePart, read: BlobReader | undefined): ImagePart | TextPart {
  const { blob, data, ...rest } = part;
  if (data !== undefined) return { ...rest, data };
  const loaded = blob === undefined ? undefined : read?.(blob);
  return loaded === undefined ? { type: "text", text: missingImage(part) } : { ...rest, data: loaded };
}

function loadResultImages(
  part: Omit<ToolResultPart, "images"> & { images?: StoredImagePart[] },
  read: BlobReader | undefined,
): ToolResultPart {
  if (part.images === undefined) return part as ToolResultPart;
  const images: ImagePart[] = [];
  const missing: string[] = [];
  for (const image of part.images) {
    const loaded = loadImage(image, read);
    if (loaded.type === "image") images.push(loaded);
    else missing.push(loaded.text);
  }
  const { images: _, ...rest } = part;
  const content = missing.length === 0 ? rest.content : [rest.content, ...missing].join("\n");
  return images.length === 0 ? { ...rest, content } : { ...rest, content, images };
}

function missingImage(part: StoredImagePart): string {
  return `[${part.mediaType} image: its file .agentry/blobs/${part.blob ?? "?"} is missing or damaged, so it is not shown]`;
}
