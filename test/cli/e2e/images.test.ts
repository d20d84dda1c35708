import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gifImage, pngImage } from "../../support/images.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { type Protocol, providerEnv } from "../support/provider-env.ts";

// Images at the wire, through the agentry command: what the provider receives for `--image`, an
// `@image` mention, `read` of an image, and after `--resume`; for Anthropic and OpenAI (Responses).

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

const logo = pngImage(40, 20);
const logoBase64 = logo.toString("base64");

async function workspace(): Promise<TestWorkspace> {
  ws = await makeWorkspace({});
  await writeFile(join(ws.dir, "logo.png"), logo);
  return ws;
}

function run(protocol: Protocol, args: string[], extraEnv: Record<string, string> = {}) {
  if (!ws || !server) throw new Error("set up first");
  return runCli(args, { cwd: ws.dir, env: { ...ws.env, ...providerEnv(server, protocol), ...extraEnv } });
}

/** Every image the request carries, as `media type:base64`, in the provider's own shapes. */
function imagesIn(request: RecordedRequest | undefined): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const node = value as Record<string, unknown>;
    const source = node.source as Record<string, unknown> | undefined;
    if (node.type === "image" && source?.type === "base64") found.push(`${source.media_type}:${source.data}`);
    if (node.type === "input_image" && typeof node.image_url === "string") {
      const match = /^data:([^;]+);base64,(.*)$/.exec(node.image_url);
      if (match) found.push(`${match[1]}:${match[2]}`);
    }
    for (const item of Object.values(node)) visit(item);
  };
  visit(request?.body);
  return found;
}

describe.each<Protocol>(["anthropic", "openai"])("images with %s", (protocol) => {
  it("--image and an @image mention go with the prompt as image blocks", async () => {
    await workspace();
    const gif = gifImage(3, 3);
    await writeFile(join(ws?.dir ?? "", "dot.gif"), gif);
    server = await startModelServer({ text: "a logo and a dot" });
    const result = await run(protocol, ["run", "--image", "logo.png", "What is in these, and in @dot.gif?"]);
    expect(result.code, result.stderr).toBe(0);
    expect(imagesIn(server.requests[0])).toEqual([
      `image/png:${logoBase64}`,
      `image/gif:${gif.toString("base64")}`,
    ]);
  });

  it("an image read by the agent reaches the model in the tool result, and again after --resume", async () => {
    await workspace();
    server = await startModelServer([
      { toolCalls: [{ name: "read", args: { path: "logo.png" } }] },
      { text: "It is a gray logo." },
      { text: "Still gray." },
    ]);
    const first = await run(protocol, ["run", "--output-format", "json", "Describe logo.png"]);
    expect(first.code, first.stderr).toBe(0);
    expect(imagesIn(server.requests[0])).toEqual([]);
    expect(imagesIn(server.requests[1])).toEqual([`image/png:${logoBase64}`]);
    const { sessionId } = JSON.parse(first.stdout) as { sessionId: string };
    const resumed = await run(protocol, ["run", "--resume", sessionId, "Look again"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(imagesIn(server.requests[2])).toEqual([`image/png:${logoBase64}`]);
  });
});

describe("images and the model", () => {
  it("a model that reads no images gets a line of text instead", async () => {
    await workspace();
    server = await startModelServer({ text: "I cannot see it." });
    const result = await run(
      "openai",
      ["run", "--model", "ollama:qwen3", "--image", "logo.png", "What is this?"],
      {
        OLLAMA_BASE_URL: server.openaiBaseUrl,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const body = JSON.stringify(server.requests[0]?.body);
    expect(body).not.toContain(logoBase64);
    expect(body).toContain(
      "[image/png image, 40×20 px, 1 KB: not shown, because ollama:qwen3 does not take image input]",
    );
  });

  it("providers.imageInput in agentry.json tells agentry that a local model reads images", async () => {
    await workspace();
    await writeFile(
      join(ws?.dir ?? "", "agentry.json"),
      JSON.stringify({ providers: { imageInput: { "ollama:qwen3": true } } }),
    );
    server = await startModelServer({ text: "A logo." });
    const result = await run(
      "openai",
      ["run", "--model", "ollama:qwen3", "--image", "logo.png", "What is this?"],
      {
        OLLAMA_BASE_URL: server.openaiBaseUrl,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.stringify(server.requests[0]?.body)).toContain(`data:image/png;base64,${logoBase64}`);
  });

  it("a 20 MB image is refused clearly: by read (the model is told why) and by --image (exit 2)", async () => {
    await workspace();
    await writeFile(join(ws?.dir ?? "", "huge.png"), pngImage(2600, 2600, { noise: true }));
    server = await startModelServer([
      { toolCalls: [{ name: "read", args: { path: "huge.png" } }] },
      { text: "Too large." },
    ]);
    const read = await run("anthropic", ["run", "Describe huge.png"]);
    expect(read.code, read.stderr).toBe(0);
    const told = JSON.stringify(server.requests[1]?.body);
    expect(told).toMatch(/huge\.png is a PNG image of 19\.\d MB \(2600×2600 px\), more than the 3\.8 MB/);
    expect(imagesIn(server.requests[1])).toEqual([]);

    const flag = await run("anthropic", ["run", "--image", "huge.png", "Describe it"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--image huge\.png: huge\.png is a PNG image of 19\.\d MB/);
    expect(server.requests).toHaveLength(2);
  });

  it("--image of a file that is no image is a usage error before any model call", async () => {
    ws = await makeWorkspace({ "notes.txt": "hello" });
    server = await startModelServer({ text: "unused" });
    const result = await run("anthropic", ["run", "--image", "notes.txt", "Look"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--image notes.txt: is not a PNG, JPEG, GIF or WebP image.");
    expect(server.requests).toHaveLength(0);
  });
});
