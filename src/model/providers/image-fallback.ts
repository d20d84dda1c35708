import { imageBytes } from "../images.ts";
import type { ImagePart, ToolResultPart } from "../messages.ts";

/**
 * The line of text that stands for an image a model cannot read, so the model knows there was one and
 * can say so, instead of answering as if it had seen it.
 */
export function imageFallbackText(image: ImagePart, modelId: string): string {
  const pixels = image.width !== undefined ? `, ${image.width}×${image.height} px` : "";
  const kb = Math.max(1, Math.round(imageBytes(image) / 1024));
  return `[${image.mediaType} image${pixels}, ${kb} KB: not shown, because ${modelId} does not take image input]`;
}

/** What introduces a tool result's images when they travel in a user message after the results. */
export function imagesNote(part: ToolResultPart): string {
  const count = part.images?.length ?? 0;
  return `[${count === 1 ? "The image" : `The ${count} images`} returned by the ${part.toolName} call ${part.toolCallId}:]`;
}

/** The prompt option of a model that reads no images (`images === false`), or none. */
export function imageOptions(
  modelId: string,
  images: boolean | undefined,
): { textOnly?: { modelId: string } } {
  return images === false ? { textOnly: { modelId } } : {};
}
