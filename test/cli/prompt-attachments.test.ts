import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { imageFiles, pastedImage, promptAttachments } from "../../src/cli/prompt-attachments.ts";
import type { McpServerSet } from "../../src/mcp/mcp-servers.ts";
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

describe("promptAttachments", () => {
  it("attaches the images a prompt mentions, each after a line naming it, and leaves other mentions alone", async () => {
    const found = await promptAttachments('Compare @logo.png, @"shots/a b.png" and @notes.md.', {
      workspace,
      cwd: workspace,
    });
    expect(found.mentions).toEqual(["logo.png", "shots/a b.png"]);
    expect(found.problems).toEqual([]);
    expect(found.parts).toEqual([
      { type: "text", text: "[@logo.png: PNG image, 5×4 px, 1 KB]" },
      image,
      { type: "text", text: "[@shots/a b.png: PNG image, 5×4 px, 1 KB]" },
      image,
    ]);
  });

  it("refuses an image the read rules deny, and one outside the workspace is not its business", async () => {
    const rules = [{ permission: "read", pattern: "logo.png", action: "deny" as const }];
    const found = await promptAttachments("see @logo.png and @../elsewhere.png", {
      workspace,
      cwd: workspace,
      rules,
    });
    expect(found.parts).toEqual([]);
    expect(found.problems).toEqual(["@logo.png: reading logo.png is denied by the permission rules."]);
  });

  it("refuses a link in the workspace that leads to an image outside it", async () => {
    const elsewhere = await tempDir("agentry-attach-outside-");
    await writeFile(join(elsewhere, "secret.png"), png);
    await symlink(join(elsewhere, "secret.png"), join(workspace, "innocent.png"));
    const found = await promptAttachments("look at @innocent.png", { workspace, cwd: workspace });
    expect(found.parts).toEqual([]);
    expect(found.problems).toEqual([
      "@innocent.png: innocent.png is a link that leads outside the workspace; attach it with --image.",
    ]);
  });

  it("reads @server:uri from a connected MCP server, and names the failure of one it cannot read", async () => {
    const mcp = {
      servers: [{ name: "docs", tools: [], prompts: [], resources: true }],
      readResource: async (server: string, uri: string) => {
        if (uri.endsWith("missing")) throw new Error("Resource not found");
        return { text: `${server} says hi from ${uri}`, images: [] };
      },
      getPrompt: async () => ({ text: "", images: [] }),
    } satisfies Pick<McpServerSet, "servers" | "readResource" | "getPrompt">;
    const found = await promptAttachments(
      "Read @docs:file:///guide.md. Then @docs:file:///missing and @other:x",
      {
        workspace,
        cwd: workspace,
        mcp,
      },
    );
    expect(found.parts).toEqual([
      { type: "text", text: "[@docs:file:///guide.md]\ndocs says hi from file:///guide.md" },
    ]);
    expect(found.problems).toEqual(["@docs:file:///missing: Resource not found"]);
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
