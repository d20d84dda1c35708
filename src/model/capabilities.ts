import { candidateKeys } from "./pricing.ts";

/**
 * Models of Anthropic and OpenAI that read no images (their snapshots too): every Claude model since
 * Claude 3 reads them, and so do OpenAI's current models. Users correct or add models through
 * `ModelSettings.imageInput` (`providers.imageInput` in agentry.json), e.g. for a vision model behind an
 * OpenAI-compatible server.
 */
export const TEXT_ONLY_MODELS: readonly RegExp[] = [
  /^openai:gpt-3\.5/,
  /^openai:gpt-4(-\d{4})?$/,
  /^openai:o1-mini/,
  /^openai:o3-mini/,
  /^openai:codex-mini/,
];

/** Providers whose models take images unless the table says otherwise. */
const PROVIDER_IMAGE_INPUT: Readonly<Record<string, boolean>> = { anthropic: true, openai: true };

/**
 * Local and compatible servers host every kind of model: these names are vision models' (Ollama's
 * library and their Hugging Face names); any other is taken to read text only.
 */
const VISION_MODEL_NAMES: readonly RegExp[] = [
  /llava/i,
  /vision/i,
  /[-_.]vl\b|vl[-_:]|qwen\d(\.\d)?vl/i,
  /gemma-?3/i,
  /minicpm-v/i,
  /moondream/i,
  /llama-?4/i,
  /mistral-small-?3\.[12]/i,
  /pixtral/i,
  /claude/i,
  /gpt-4o|gpt-4\.1|gpt-5/i,
  /gemini/i,
];

/**
 * Whether `modelId` takes image input: `extra` (the user's settings, by id) first, then
 * `TEXT_ONLY_MODELS`, then the provider's default; for Ollama and OpenAI-compatible servers, whether the
 * model's name is a vision model's.
 */
export function takesImages(modelId: string, extra: Readonly<Record<string, boolean>> = {}): boolean {
  for (const key of candidateKeys(modelId)) {
    const known = extra[key];
    if (known !== undefined) return known;
  }
  if (TEXT_ONLY_MODELS.some((pattern) => pattern.test(modelId))) return false;
  const colon = modelId.indexOf(":");
  const provider = modelId.slice(0, Math.max(0, colon));
  const byProvider = PROVIDER_IMAGE_INPUT[provider];
  if (byProvider !== undefined) return byProvider;
  const name = modelId.slice(colon + 1);
  return VISION_MODEL_NAMES.some((pattern) => pattern.test(name));
}
