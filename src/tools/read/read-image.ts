import { describeImage, type ImageInfo, imagePartOf, imageTooLarge, sniffImage } from "../../model/images.ts";
import type { ImagePart } from "../../model/messages.ts";
import type { Operations } from "../operations.ts";
import { type ToolContext, ToolError, type ToolResult } from "../tool.ts";
import { resolveWorkspacePath } from "../workspace-path.ts";

/**
 * `read` of an image file (PNG, JPEG, GIF or WebP, known by its first bytes): the image itself, for the
 * model to look at, with a line naming it. One too large to send is refused with its size and how to
 * make a smaller copy; agentry does not shrink images (docs/decisions/0012-images-are-not-resized.md).
 */
export function readImage(relative: string, data: Uint8Array, info: ImageInfo): ToolResult {
  checkImageSize(relative, info, data.length);
  const image = { format: info.format, bytes: data.length, width: info.width, height: info.height };
  return {
    content: `${relative}: ${describeImage(info, data.length)}.`,
    images: [imagePartOf(data, info)],
    details: { path: relative, image },
  };
}

/** Refuses an image too large to send (`bytes`: the file's size), before its bytes are read. */
export function checkImageSize(relative: string, info: ImageInfo, bytes: number): void {
  const tooLarge = imageTooLarge(info, bytes, relative);
  if (tooLarge !== undefined) throw new ToolError(tooLarge);
}

/** The first bytes of a file, enough to know an image and its size; the file is closed after them. */
export async function fileHead(ops: Operations, path: string): Promise<Uint8Array> {
  for await (const chunk of ops.readChunks(path)) return chunk;
  return new Uint8Array();
}

/**
 * An image file of the workspace as an image part, read as `read` reads one (its path confined, the
 * `read` permission asked): for a tool that hands images on (the `task` tool's `images`). Anything that
 * is not an image small enough to send is a `ToolError` saying so.
 */
export async function readImageFile(ctx: ToolContext, path: string): Promise<ImagePart> {
  const target = await resolveWorkspacePath(ctx, path);
  await ctx.ask({ permission: "read", patterns: [target.relative], title: `read ${target.relative}` });
  const stat = await ctx.ops.stat(target.absolute);
  if (stat === undefined || !stat.isFile) throw new ToolError(`${target.relative} is not a file.`);
  const info = sniffImage(await fileHead(ctx.ops, target.absolute));
  if (info === undefined)
    throw new ToolError(`${target.relative} is not an image (PNG, JPEG, GIF or WebP, known by its bytes).`);
  checkImageSize(target.relative, info, stat.size);
  return imagePartOf(await ctx.ops.readFile(target.absolute), info);
}
