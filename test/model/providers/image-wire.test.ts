import { afterEach, describe, expect, test } from "vitest";
import { emptyUsage, type ImagePart, type Message } from "../../../src/model/messages.ts";
import type { ModelRequest } from "../../../src/model/model.ts";
import { createModel } from "../../../src/model/registry.ts";
import { pngImage } from "../../support/images.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { modelFor } from "./http-models.ts";

// Images at the wire: what each provider's API receives for an image the user gave and one a tool
// returned, through the real AI SDK adapters.

const screenshot: ImagePart = {
  type: "image",
  mediaType: "image/png",
  data: pngImage(4, 2).toString("base64"),
  width: 4,
  height: 2,
};
const diagram: ImagePart = { ...screenshot, data: pngImage(3, 3).toString("base64"), width: 3, height: 3 };

const messages: Message[] = [
  { role: "user", content: [{ type: "text", text: "What is on screen?" }, screenshot] },
  {
    role: "assistant",
    content: [
      { type: "tool_call", id: "call_1", name: "read", args: { path: "d.png" }, rawArgs: '{"path":"d.png"}' },
    ],
    stopReason: "tool_calls",
    usage: emptyUsage(),
    model: "x",
  },
  {
    role: "tool_result",
    content: [
      {
        type: "tool_result",
        toolCallId: "call_1",
        toolName: "read",
        content: "d.png: PNG image, 3×3 px, 1 KB.",
        isError: false,
        images: [diagram],
      },
    ],
  },
];
const request: ModelRequest = {
  system: "",
  messages,
  tools: [{ name: "read", description: "Read a file", inputSchema: { type: "object" } }],
};

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function bodyFor(model: (server: ModelServer) => ReturnType<typeof createModel>) {
  server = await startModelServer({ text: "ok" });
  const message = await model(server).stream(request).result();
  expect(message.stopReason).toBe("stop");
  const body = server.requests[0]?.body;
  if (!body) throw new Error("no request");
  return body;
}

const dataUrl = (image: ImagePart) => `data:${image.mediaType};base64,${image.data}`;

describe("a model that reads images", () => {
  test("Anthropic: image blocks in the user's message and inside the tool result", async () => {
    const body = await bodyFor((s) => modelFor("anthropic", s));
    const [user, , results] = body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    // (toMatchObject: the newest user messages also carry their cache breakpoint.)
    expect(user?.content[1]).toMatchObject({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: screenshot.data },
    });
    expect(results?.content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: "call_1",
      content: [
        { type: "text", text: "d.png: PNG image, 3×3 px, 1 KB." },
        { type: "image", source: { type: "base64", media_type: "image/png", data: diagram.data } },
      ],
    });
  });

  test("OpenAI Responses: input_image in the message and in the function_call_output", async () => {
    const body = await bodyFor((s) => modelFor("openai", s));
    const input = body.input as Array<Record<string, unknown>>;
    expect(input[0]).toMatchObject({
      role: "user",
      content: [
        { type: "input_text", text: "What is on screen?" },
        { type: "input_image", image_url: dataUrl(screenshot) },
      ],
    });
    expect(input.find((item) => item.type === "function_call_output")).toMatchObject({
      call_id: "call_1",
      output: [
        { type: "input_text", text: "d.png: PNG image, 3×3 px, 1 KB." },
        { type: "input_image", image_url: dataUrl(diagram) },
      ],
    });
  });

  test("OpenAI Chat Completions: the tool message keeps the text, a user message after it the image", async () => {
    const body = await bodyFor((s) => modelFor("openai-chat", s));
    const sent = body.messages as Array<{ role: string; content: unknown }>;
    expect(sent.map((message) => message.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(sent[0]?.content).toEqual([
      { type: "text", text: "What is on screen?" },
      { type: "image_url", image_url: { url: dataUrl(screenshot) } },
    ]);
    expect(sent[2]?.content).toBe("d.png: PNG image, 3×3 px, 1 KB.");
    expect(sent[3]?.content).toEqual([
      { type: "text", text: "[The image returned by the read call call_1:]" },
      { type: "image_url", image_url: { url: dataUrl(diagram) } },
    ]);
  });

  test("an OpenAI-compatible vision model (by its name, or by providers.imageInput) gets them the same way", async () => {
    const body = await bodyFor((s) =>
      createModel(
        "openai-compatible:local/my-vlm",
        {
          openaiCompatible: { local: { baseUrl: s.openaiBaseUrl } },
          imageInput: { "openai-compatible:local/my-vlm": true },
        },
        {},
      ),
    );
    const sent = body.messages as Array<{ role: string; content: unknown }>;
    expect(sent.map((message) => message.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(JSON.stringify(sent[3]?.content)).toContain(dataUrl(diagram));
  });
});

describe("a model that reads no images", () => {
  const fallback = (image: ImagePart, model: string) =>
    `[image/png image, ${image.width}×${image.height} px, 1 KB: not shown, because ${model} does not take image input]`;

  test("gets a line of text for each image, and no image at all", async () => {
    const body = await bodyFor((s) =>
      createModel("ollama:qwen3", { ollama: { baseUrl: s.openaiBaseUrl } }, {}),
    );
    const text = JSON.stringify(body);
    expect(text).not.toContain(screenshot.data);
    expect(text).not.toContain(diagram.data);
    const sent = body.messages as Array<{ role: string; content: unknown }>;
    expect(sent.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(sent[0]?.content).toEqual([
      { type: "text", text: "What is on screen?" },
      { type: "text", text: fallback(screenshot, "ollama:qwen3") },
    ]);
    expect(sent[2]?.content).toBe(`d.png: PNG image, 3×3 px, 1 KB.\n${fallback(diagram, "ollama:qwen3")}`);
  });

  test("an OpenAI model without vision, on the Responses API", async () => {
    const body = await bodyFor((s) =>
      createModel("openai:o3-mini", { openai: { apiKey: "k", baseUrl: s.openaiBaseUrl } }, {}),
    );
    expect(JSON.stringify(body)).not.toContain("input_image");
    const input = body.input as Array<Record<string, unknown>>;
    expect(input.find((item) => item.type === "function_call_output")?.output).toBe(
      `d.png: PNG image, 3×3 px, 1 KB.\n${fallback(diagram, "openai:o3-mini")}`,
    );
  });
});
