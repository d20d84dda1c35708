import { jsonRenderer } from "./json-renderer.ts";
import type { OutputFormat, Renderer, RenderTarget } from "./renderer.ts";
import { streamJsonRenderer } from "./stream-json-renderer.ts";
import { textRenderer } from "./text-renderer.ts";

export function createRenderer(format: OutputFormat, target: RenderTarget): Renderer {
  switch (format) {
    case "text":
      return textRenderer(target);
    case "json":
      return jsonRenderer(target);
    case "stream-json":
      return streamJsonRenderer(target);
  }
}
