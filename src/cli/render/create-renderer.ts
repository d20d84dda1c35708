import { jsonRenderer } from "./json-renderer.ts";
import type { OutputFormat, Renderer, RenderTarget } from "./renderer.ts";
import { streamJsonRenderer } from "./stream-json-renderer.ts";
import { type TextRendererOptions, textRenderer } from "./text-renderer.ts";

/** `text` options apply to the text format only. */
export function createRenderer(
  format: OutputFormat,
  target: RenderTarget,
  text: TextRendererOptions = {},
): Renderer {
  switch (format) {
    case "text":
      return textRenderer(target, text);
    case "json":
      return jsonRenderer(target);
    case "stream-json":
      return streamJsonRenderer(target);
  }
}
