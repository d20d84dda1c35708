import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { ImagePart } from "../../model/messages.ts";
import { PermissionDeniedError } from "../../permissions/types.ts";
import { errorMessage } from "../../text/error-message.ts";
import { listTool } from "../../tools/list/list.ts";
import { readTool } from "../../tools/read/read.ts";
import { resolveWorkspacePath, type WorkspacePath } from "../../tools/workspace-path.ts";
import {
  type Attachment,
  type Mention,
  type MentionContext,
  MentionError,
  type MentionResolver,
} from "./mention.ts";

/** Characters of one file or folder listing a mention inlines (the read tool's own limits apply first). */
export const MENTION_MAX_CHARS = 50_000;

/**
 * `@path`: a file's text as the read tool shows it (numbered lines, its line and size limits), a
 * folder's entries as the list tool shows them — through those tools, so the path is confined to the
 * workspace as theirs are (symlinks out refused) and the read rules decide (a denied or unapproved
 * path is refused, never inlined). Cut at `MENTION_MAX_CHARS`, saying where the rest starts.
 */
export const fileMentionResolver: MentionResolver = {
  kind: "file",
  async resolve(mention, context) {
    for (const target of [mention.target, mention.trimmed]) {
      if (target === undefined) continue;
      const path = await existingPath(target, context, mention);
      if (path !== undefined) return attach(mention, path, context);
    }
    return undefined;
  },
};

/** The workspace path `target` names, or undefined when nothing is there (the mention stays text). */
async function existingPath(
  target: string,
  context: MentionContext,
  mention: Mention,
): Promise<WorkspacePath | undefined> {
  let path: WorkspacePath;
  try {
    path = await resolveWorkspacePath(context, target);
  } catch (error) {
    // Outside the workspace (or through a link out of it): refused if it exists, text if it does not.
    const exists = await stat(resolve(context.workspace, target)).then(
      () => true,
      () => false,
    );
    if (!exists) return undefined;
    throw new MentionError(`${mention.text} is not inlined: ${errorMessage(error)}`);
  }
  return path.exists ? path : undefined;
}

async function attach(mention: Mention, path: WorkspacePath, context: MentionContext): Promise<Attachment> {
  const folder = (await context.ops.stat(path.absolute))?.isDirectory === true;
  let content: string;
  let images: ImagePart[] = [];
  try {
    const output = folder
      ? await listTool.execute({ path: path.relative }, context)
      : await readTool.execute({ path: path.relative }, context);
    content = typeof output === "string" ? output : output.content;
    // An image file: the read tool gives the image itself (PNG, JPEG, GIF, WebP), within its size cap.
    if (typeof output !== "string") images = output.images ?? [];
  } catch (error) {
    throw new MentionError(refusal(mention, error));
  }
  const cut = cutAt(content, MENTION_MAX_CHARS, folder);
  const tag = folder ? "directory" : "file";
  const text = `<${tag} path="${path.relative}">\n${cut.text}\n</${tag}>`;
  const lines = cut.text.split("\n").length;
  const what = folder ? "entries listed" : `${lines} line${lines === 1 ? "" : "s"}`;
  if (images.length > 0)
    return {
      parts: [{ type: "text", text: `<file path="${path.relative}">\n${content}\n</file>` }, ...images],
      note: `${path.relative} (image)`,
    };
  return {
    parts: [{ type: "text", text }],
    note: `${path.relative}${folder ? "/" : ""} (${what}${cut.cut ? `, cut at ${MENTION_MAX_CHARS.toLocaleString("en-US")} characters` : ""})`,
  };
}

function refusal(mention: Mention, error: unknown): string {
  const reason = errorMessage(error);
  if (error instanceof PermissionDeniedError) {
    // The gate's words are for a model ("do not retry it"); the person gets the first sentence and a way on.
    const first = reason.split(/(?<=\.) /)[0] ?? reason;
    return `${mention.text} is not inlined: the permission rules refuse it (${first.replace(/\.$/, "")}). Remove the mention, or allow the read (docs/permissions.md).`;
  }
  return `${mention.text} is not inlined: ${reason}`;
}

/** Whole lines up to `max` characters, and where the rest starts (`offset=` for a file). */
function cutAt(text: string, max: number, folder: boolean): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  const kept = text.slice(0, text.lastIndexOf("\n", max));
  const lastLine = /(?:^|\n)(\d+)\t[^\n]*$/.exec(kept)?.[1];
  const rest = folder
    ? "(Cut here: the listing goes on; list a subfolder to see more.)"
    : `(Cut here to keep the prompt short; read this file from offset=${Number(lastLine ?? 0) + 1} for the rest.)`;
  return { text: `${kept}\n\n${rest}`, cut: true };
}
