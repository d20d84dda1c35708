import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { loadConfigFiles, parseConfigText, userConfigPath } from "../../../src/cli/config/load-config.ts";
import { UsageError } from "../../../src/cli/errors.ts";
import { loadMcpConfigFlags } from "../../../src/cli/mcp-config-flag.ts";
import { tempDir } from "../../support/temp-dir.ts";

let root: string;
let workspace: string;
let home: string;

beforeEach(async () => {
  root = await tempDir("agentry-config-");
  workspace = join(root, "project");
  home = join(root, "home");
  await mkdir(workspace);
  await mkdir(home);
});

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected an error");
}

describe("config files", () => {
  it("finds the user file under ~/.config, or under XDG_CONFIG_HOME when set", () => {
    expect(userConfigPath({ HOME: "/h" })).toBe("/h/.config/agentry/config.json");
    expect(userConfigPath({ HOME: "/h", XDG_CONFIG_HOME: "/x" })).toBe("/x/agentry/config.json");
  });

  it("loads agentry.json from the project and the user file", async () => {
    await writeFile(join(workspace, "agentry.json"), JSON.stringify({ model: "openai:gpt-5", maxTurns: 4 }));
    await mkdir(join(home, ".config", "agentry"), { recursive: true });
    await writeFile(
      join(home, ".config", "agentry", "config.json"),
      JSON.stringify({ model: "ollama:qwen3" }),
    );
    const loaded = await loadConfigFiles({ workspace, env: { HOME: home } });
    expect(loaded.project?.label).toBe("agentry.json");
    expect(loaded.project?.config).toEqual({ model: "openai:gpt-5", maxTurns: 4 });
    expect(loaded.user?.config).toEqual({ model: "ollama:qwen3" });
  });

  it("accepts .agentry/config.json as the project file", async () => {
    await mkdir(join(workspace, ".agentry"));
    await writeFile(join(workspace, ".agentry", "config.json"), JSON.stringify({ maxTurns: 7 }));
    const loaded = await loadConfigFiles({ workspace, env: { HOME: home } });
    expect(loaded.project?.config).toEqual({ maxTurns: 7 });
    expect(loaded.user).toBeUndefined();
  });

  it("refuses two project files instead of guessing which one wins", async () => {
    await mkdir(join(workspace, ".agentry"));
    await writeFile(join(workspace, ".agentry", "config.json"), "{}");
    await writeFile(join(workspace, "agentry.json"), "{}");
    await expect(loadConfigFiles({ workspace, env: { HOME: home } })).rejects.toThrow(/keep only one/);
  });

  it("reports invalid JSON with the file name", async () => {
    await writeFile(join(workspace, "agentry.json"), '{ "model": "x", }');
    await expect(loadConfigFiles({ workspace, env: { HOME: home } })).rejects.toThrow(
      /^agentry\.json: invalid JSON/,
    );
  });

  it("reads a file saved with a UTF-8 byte-order mark (Windows editors write one)", async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    await writeFile(join(workspace, "agentry.json"), Buffer.concat([bom, Buffer.from('{ "maxTurns": 5 }')]));
    await mkdir(join(home, ".config", "agentry"), { recursive: true });
    await writeFile(
      join(home, ".config", "agentry", "config.json"),
      Buffer.concat([bom, Buffer.from('{ "model": "ollama:qwen3" }')]),
    );
    const loaded = await loadConfigFiles({ workspace, env: { HOME: home } });
    expect(loaded.project?.config).toEqual({ maxTurns: 5 });
    expect(loaded.user?.config).toEqual({ model: "ollama:qwen3" });
    const mcp = join(workspace, "mcp.json");
    await writeFile(mcp, Buffer.concat([bom, Buffer.from('{ "mcpServers": { "s": { "command": "x" } } }')]));
    expect(Object.keys(await loadMcpConfigFlags([mcp], workspace))).toEqual(["s"]);
  });

  it("still refuses a byte-order mark in the middle of the text", () => {
    expect(errorOf(() => parseConfigText('{ "maxTurns": \uFEFF5 }', "agentry.json"))).toMatch(
      /^agentry\.json: invalid JSON/,
    );
  });

  it("names the user file by its path", async () => {
    const xdg = join(root, "xdg");
    await mkdir(join(xdg, "agentry"), { recursive: true });
    await writeFile(join(xdg, "agentry", "config.json"), JSON.stringify({ maxTurns: 0 }));
    await expect(loadConfigFiles({ workspace, env: { HOME: home, XDG_CONFIG_HOME: xdg } })).rejects.toThrow(
      `${join(xdg, "agentry", "config.json")}: "maxTurns" must be a positive integer (got 0)`,
    );
  });
});

describe("validation messages", () => {
  it("names the key and shows the bad value", () => {
    expect(errorOf(() => parseConfigText('{"maxTurns":"ten"}', "agentry.json"))).toBe(
      'agentry.json: "maxTurns" must be a positive integer (got "ten")',
    );
  });

  it("suggests the closest key for an unknown one", () => {
    expect(errorOf(() => parseConfigText('{"maxTurn":3}', "agentry.json"))).toBe(
      'agentry.json: unknown key "maxTurn" (did you mean "maxTurns"?)',
    );
    expect(errorOf(() => parseConfigText('{"providers":{"antropic":{}}}', "agentry.json"))).toBe(
      'agentry.json: unknown key "providers.antropic" (did you mean "providers.anthropic"?)',
    );
  });

  it("lists the known keys when nothing is close", () => {
    expect(errorOf(() => parseConfigText('{"providers":{"anthropic":{"zzzzzz":1}}}', "a.json"))).toBe(
      'a.json: unknown key "providers.anthropic.zzzzzz" (known keys: apiKey, baseUrl)',
    );
  });

  it("reports nested paths inside records", () => {
    const text = JSON.stringify({ providers: { openaiCompatible: { vllm: { baseUrl: "localhost:8000" } } } });
    expect(errorOf(() => parseConfigText(text, "agentry.json"))).toBe(
      'agentry.json: "providers.openaiCompatible.vllm.baseUrl" must be an http(s) URL (got "localhost:8000")',
    );
  });

  it("reports enum choices, wrong types and every problem at once", () => {
    const message = errorOf(() =>
      parseConfigText(JSON.stringify({ permissionMode: "yolo", providers: "x", model: "" }), "agentry.json"),
    );
    expect(message.split("\n")).toEqual([
      'agentry.json: "model" must not be empty (got "")',
      'agentry.json: "providers" must be an object (got "x")',
      'agentry.json: "permissionMode" must be one of default, accept-edits, bypass, plan (got "yolo")',
    ]);
  });

  it("names the choices of providers.openai.api", () => {
    expect(errorOf(() => parseConfigText('{"providers":{"openai":{"api":"completions"}}}', "a.json"))).toBe(
      'a.json: "providers.openai.api" must be one of responses, chat (got "completions")',
    );
  });

  it("requires a JSON object at the top", () => {
    expect(errorOf(() => parseConfigText("[1]", "agentry.json"))).toBe(
      "agentry.json: the file must be an object (got [1])",
    );
  });

  it("accepts every documented key", () => {
    const config = {
      $schema: "https://example.com/schema.json",
      model: "sonnet",
      providers: {
        anthropic: { apiKey: "k", baseUrl: "https://api.anthropic.com" },
        openai: { baseUrl: "http://localhost:1234/v1", api: "chat" },
        ollama: { baseUrl: "http://localhost:11434" },
        openaiCompatible: { vllm: { baseUrl: "http://localhost:8000/v1", headers: { "x-a": "b" } } },
        aliases: { fast: "anthropic:claude-haiku-4-5" },
        retry: { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1000 },
      },
      maxTurns: 12,
      permissionMode: "accept-edits",
      permission: { bash: { "npm test": "allow" } },
      toolOutputLimit: 20000,
      bashTimeoutSeconds: 30,
    };
    expect(parseConfigText(JSON.stringify(config), "agentry.json")).toEqual(config);
  });
});
