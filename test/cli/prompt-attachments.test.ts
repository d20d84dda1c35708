import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import type { AgentConfig } from "../../src/agent/config.ts";
import { promptMessage } from "../../src/cli/mentions/prompt-message.ts";
import { imageFiles, type McpAccess, pastedImage } from "../../src/cli/prompt-attachments.ts";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import { pngImage } from "../support/images.ts";
import { tempDir } from "../support/temp-dir.ts";

let workspace: string;
const png = pngImage(5, 4);
beforeEach(async () => {
  workspace = await tempDir("agentry-attach-");
  await mkdir(join(workspace, "shots"));
  await writeFile(join(workspace, "shots", "a b.png"), png);
  await writeFile(join(workspace, "logo.png"), png);
  await writeFile(join(workspace, "notes.md"), "# notes");
});

const image = { type: "image", mediaType: "image/png", data: png.toString("base64"), width: 5, height: 4 };

/** The root agent a prompt's mentions are read for: default rules, no tools of its own. */
function rootConfig(rules: Ruleset = DEFAULT_RULES): AgentConfig {
  return {
    name: "main",
    model: scriptedModel([]),
    systemPrompt: "",
    tools: [],
    workspace,
    ops: nodeOperations,
    ask: createPermissionGate({ rules, mode: "default" }),
  };
}

const mention = (prompt: string, options: { rules?: Ruleset; mcp?: McpAccess } = {}) =>
  promptMessage(prompt, {
    config: rootConfig(options.rules),
    signal: new AbortController().signal,
    sessionId: "",
    say: () => {},
    mcp: options.mcp,
  });

describe("images and MCP resources mentioned in a prompt", () => {
  it("attaches the images a prompt mentions, each after a line naming it, and inlines the text files", async () => {
    const message = await mention('Compare @logo.png, @"shots/a b.png" and @notes.md.');
    const images = message.content.filter((part) => part.type === "image");
    expect(images).toEqual([
      expect.objectContaining({ mediaType: "image/png", width: 5, height: 4 }),
      expect.objectContaining({ mediaType: "image/png" }),
    ]);
    expect(JSON.stringify(message.content)).toContain("# notes");
  });

  it("refuses an image the read rules deny, sending nothing", async () => {
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "read", pattern: "logo.png", action: "deny" }];
    await expect(mention("see @logo.png", { rules })).rejects.toThrow(
      /@logo\.png is not inlined: the permission rules refuse it/,
    );
  });

  it("refuses a link in the workspace that leads to an image outside it", async () => {
    const elsewhere = await tempDir("agentry-attach-outside-");
    await writeFile(join(elsewhere, "secret.png"), png);
    await symlink(join(elsewhere, "secret.png"), join(workspace, "innocent.png"));
    await expect(mention("look at @innocent.png")).rejects.toThrow(/@innocent\.png is not inlined/);
  });

  it("reads @server:uri from a connected MCP server, refuses one it cannot read, and leaves @other:x as text", async () => {
    const mcp = {
      servers: [{ name: "docs", tools: [], prompts: [], resources: true }],
      readResource: async (server: string, uri: string) => {
        if (uri.endsWith("missing")) throw new Error("Resource not found");
        return { text: `${server} says hi from ${uri}`, images: [] };
      },
      getPrompt: async () => ({ text: "", images: [] }),
    } satisfies McpAccess;
    const message = await mention("Read @docs:file:///guide.md. And @other:x", { mcp });
    expect(message.content.at(-1)).toEqual({
      type: "text",
      text: '<resource server="docs" uri="file:///guide.md">\ndocs says hi from file:///guide.md\n</resource>',
    });
    await expect(mention("Then @docs:file:///missing", { mcp })).rejects.toThrow(
      "@docs:file:///missing is not inlined: Resource not found",
    );
  });
});

describe("pastedImage", () => {
  it("takes the forms a terminal pastes a dropped file in", async () => {
    const context = { workspace, cwd: workspace };
    for (const line of [
      join(workspace, "shots", "a b.png"),
      `'${join(workspace, "shots", "a b.png")}'`,
      join(workspace, "shots", "a\\ b.png"),
      pathToFileURL(join(workspace, "shots", "a b.png")).href,
      "  logo.png  ",
    ]) {
      const pasted = await pastedImage(line, context);
      expect(pasted, line).toMatchObject({ parts: [{ type: "text" }, image] });
    }
  });

  it("is undefined for a prompt, a text file or a missing image", async () => {
    const context = { workspace, cwd: workspace };
    expect(await pastedImage("what is in logo.png", context)).toBeUndefined();
    expect(await pastedImage("notes.md", context)).toBeUndefined();
    expect(await pastedImage("gone.png", context)).toBeUndefined();
  });
});

describe("imageFiles", () => {
  it("loads --image paths from the shell's directory, and names what is wrong with one", async () => {
    expect(await imageFiles(["logo.png"], { workspace, cwd: workspace })).toHaveLength(2);
    await expect(imageFiles(["notes.md"], { workspace, cwd: workspace })).rejects.toThrow(
      "--image notes.md: is not a PNG, JPEG, GIF or WebP image.",
    );
    await expect(imageFiles(["nope.png"], { workspace, cwd: workspace })).rejects.toThrow(
      "--image nope.png: no such file.",
    );
  });
});
