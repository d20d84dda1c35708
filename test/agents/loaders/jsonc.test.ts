import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadAgentDefinitions } from "../../../src/agents/discover.ts";

/**
 * A repository's opencode.jsonc is untrusted input: agentry reads its comments and trailing commas as
 * OpenCode does (jsonc-parser), so that it sees the same limits, and refuses what is not JSONC or holds
 * a key twice, pointing at the line.
 */

let root: string;
let project: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agentry-jsonc-"));
  project = join(root, "project");
  home = join(root, "home");
  await mkdir(project, { recursive: true });
  await mkdir(home, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 3 });
});

const configPath = (): string => join(project, "opencode.jsonc");

async function loadConfig(text: string) {
  await writeFile(configPath(), text);
  const { definitions, diagnostics } = await loadAgentDefinitions({
    projectDir: project,
    homeDir: home,
    includeBuiltins: false,
  });
  return { definitions, diagnostics, reviewer: definitions.find((d) => d.name === "reviewer") };
}

describe("opencode.jsonc as OpenCode reads it", () => {
  it("ends a // comment at a lone carriage return, so the limit after it holds", async () => {
    // OpenCode reads `"bash": "deny"` after the \r; a comment running to the next \n would drop it.
    const { reviewer, diagnostics } = await loadConfig(
      [
        '{"agent": {"reviewer": {"description": "Reviews code", "prompt": "Review.",',
        '  "permission": {"edit": "deny", // no edits\r"bash": "deny",',
        '  "webfetch": "allow"}}}}',
      ].join("\n"),
    );
    expect(diagnostics).toEqual([]);
    expect(reviewer?.permission).toEqual({ edit: "deny", bash: "deny", webfetch: "allow" });
  });
});

describe("opencode.jsonc that is refused, with every agent of its level", () => {
  it("refuses a key given twice after a lone carriage return", async () => {
    const { definitions, diagnostics } = await loadConfig(
      '{"permission": {"bash": "deny",\r"bash": "allow"}}',
    );
    expect(definitions).toEqual([]);
    expect(diagnostics).toEqual([
      expect.objectContaining({ line: 2, message: "a key appears twice in one object; write it once" }),
    ]);
  });
});
