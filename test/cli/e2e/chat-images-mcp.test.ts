import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pngImage } from "../../support/images.ts";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { serverEverythingConfig } from "../../support/server-everything.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

const logo = pngImage(12, 12).toString("base64");
const anthropicImage = `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${logo}"}`;

async function chat(
  input: string,
  script: Parameters<typeof startModelServer>[0],
  files: Record<string, string> = {},
) {
  ws = await makeWorkspace(files);
  await ws.trust();
  await writeFile(join(ws.dir, "shot one.png"), Buffer.from(logo, "base64"));
  server = await startModelServer(script);
  return runCli(["chat"], { cwd: ws.dir, env: { ...ws.env, ...providerEnv(server, "anthropic") }, input });
}

describe("agentry chat: images and MCP", () => {
  it("a path pasted alone attaches the image to the next message, and other lines go as they are", async () => {
    const result = await chat("'shot one.png'\nWhat is this?\nThanks\n", [
      { text: "A square." },
      { text: "You're welcome." },
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("Attached shot one.png; it goes with your next message.");
    expect(server?.requests).toHaveLength(2);
    const first = JSON.stringify(server?.requests[0]?.body);
    expect(first).toContain(anthropicImage);
    expect(first).toContain("What is this?");
    // The image stays in the history, once.
    const second = JSON.stringify(server?.requests[1]?.body);
    expect(second.split(logo)).toHaveLength(2);
  });

  it("/mcp__<server>__<prompt> sends the server's prompt, filled in, as the turn", async () => {
    const config = { mcpServers: { everything: serverEverythingConfig() } };
    const result = await chat("/mcp__everything__args-prompt Paris\n", [{ text: "Paris it is." }], {
      "agentry.json": JSON.stringify(config),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Paris it is.");
    expect(JSON.stringify(server?.requests[0]?.body)).toContain("What's weather in Paris?");
  });

  it("@server:uri reads the MCP resource into the message", async () => {
    const config = { mcpServers: { everything: serverEverythingConfig() } };
    const result = await chat("Summarize @everything:demo://resource/dynamic/text/7\n", [{ text: "Done." }], {
      "agentry.json": JSON.stringify(config),
    });
    expect(result.code, result.stderr).toBe(0);
    const body = JSON.stringify(server?.requests[0]?.body);
    expect(body).toContain(
      String.raw`<resource server=\"everything\" uri=\"demo://resource/dynamic/text/7\">`,
    );
    expect(body).toContain("Resource 7: This is a plaintext resource");
  });
});
