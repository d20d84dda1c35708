/**
 * What an image costs in a prompt, estimated by the rule its provider publishes. Providers bill an
 * image by its pixels (after shrinking it to their limits), never by its bytes.
 */

/** An image whose size is not known: about what a full-size image costs at either provider. */
export const UNKNOWN_IMAGE_TOKENS = 1_600;

/**
 * Anthropic: an image is shrunk until its long side is at most 1568 px and it has at most about 1.15
 * megapixels, then costs width × height / 750 tokens.
 */
export function anthropicImageTokens(width: number, height: number): number {
  const scale = Math.min(1, 1568 / Math.max(width, height), Math.sqrt(1_150_000 / (width * height)));
  return Math.ceil((width * scale * (height * scale)) / 750);
}

/**
 * OpenAI (GPT-4o, GPT-4.1, GPT-5, o-series at `detail: auto`/`high`): fit in 2048×2048, then the short
 * side shrunk to 768 px; 170 tokens per 512-px tile plus 85.
 */
export function openaiImageTokens(width: number, height: number): number {
  let w = width;
  let h = height;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const short = Math.min(1, 768 / Math.min(w, h));
  w *= short;
  h *= short;
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/** The tokens an image of this size costs with `modelId`'s provider (unknown size: `UNKNOWN_IMAGE_TOKENS`). */
export function imageTokens(modelId: string | undefined, width?: number, height?: number): number {
  if (width === undefined || height === undefined || width <= 0 || height <= 0) return UNKNOWN_IMAGE_TOKENS;
  if (modelId?.startsWith("anthropic:")) return anthropicImageTokens(width, height);
  if (modelId?.startsWith("openai:")) return openaiImageTokens(width, height);
  // Other servers follow one of the two; the larger estimate keeps budgets on the safe side.
  return Math.max(anthropicImageTokens(width, height), openaiImageTokens(width, height));
}
