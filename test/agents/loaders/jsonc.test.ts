import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { loadAgentDefinitions } from "../../../src/agents/discover.ts";
import { tempDir } from "../../support/temp-dir.ts";

/**
 * A repository's opencode.jsonc is untrusted input: agentry reads its comments and trailing commas as
 * OpenCode does (jsonc-parser), so that it sees the same limits, and refuses what is not JSONC or holds
 * a key twice, pointing at the line.
 */

let project: string;
let home: string;

beforeEach(async () => {
  project = await tempDir("agentry-jsonc-project-");
  home = await tempDir("agentry-jsonc-home-");
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
  it.each([
    [
      "line comments on their own line and after a value",
      [
        "{",
        "  // the project's agents",
        '  "agent": {',
        '    "reviewer": { // reads code',
        '      "description": "Reviews code", // the picker reads this',
        '      "prompt": "Review."',
        "    }",
        "  }",
        "}",
      ],
    ],
    [
      "block comments between members, inside one and over several lines",
      [
        "{",
        '  "agent": {',
        "    /* one agent:",
        "       a reviewer */",
        '    "reviewer": {',
        '      "description": /* inline */ "Reviews code",',
        '      "prompt": "Review."',
        "    }",
        "  }",
        "}",
      ],
    ],
    [
      "an empty block comment",
      ['{"agent": {"reviewer": {"description": /**/"Reviews code", "prompt": "Review."}}}'],
    ],
    [
      "a block comment that opens with /*/, which does not close it",
      ['{"agent": {"reviewer": {/*/ still a comment */"description": "Reviews code", "prompt": "Review."}}}'],
    ],
    [
      "trailing commas in objects and arrays, before a line break or not",
      [
        "{",
        '  "instructions": ["AGENTS.md", "docs/notes.md",],',
        '  "agent": {"reviewer": {"description": "Reviews code", "prompt": "Review.",},},',
        '  "plugin": [',
        '    "opencode-notify",',
        "  ],",
        "}",
      ],
    ],
  ])("reads %s", async (_, lines) => {
    const { reviewer, diagnostics } = await loadConfig(lines.join("\n"));
    expect(diagnostics).toEqual([]);
    expect(reviewer).toMatchObject({ description: "Reviews code", prompt: "Review." });
  });

  it("keeps comment markers, commas and escaped quotes inside strings as written", async () => {
    const description = 'Reviews "a // b", /* c */ and d, }';
    const { reviewer, diagnostics } = await loadConfig(
      JSON.stringify({ agent: { reviewer: { description, prompt: "Review." } } }),
    );
    expect(diagnostics).toEqual([]);
    expect(reviewer?.description).toBe(description);
  });

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

  it("takes the same key in different objects, and the same value twice, for no duplicate", async () => {
    const { definitions, diagnostics } = await loadConfig(
      JSON.stringify({
        agent: {
          reviewer: { description: "Reviews code", prompt: "Review.", permission: { edit: "deny" } },
          writer: { description: "Writes docs", prompt: "Review.", model: "anthropic/claude-sonnet-4-5" },
        },
        model: "anthropic/claude-sonnet-4-5",
        permission: { edit: "deny" },
        instructions: ["AGENTS.md", "AGENTS.md"],
      }),
    );
    expect(diagnostics).toEqual([]);
    expect(definitions.map((d) => d.name).sort()).toEqual(["reviewer", "writer"]);
  });
});

describe("opencode.jsonc that is refused, with every agent of its level", () => {
  it.each([
    ["a slash that opens no comment", '"description": "d" / not a comment */,'],
    ["a star that opens no comment", '"description": "d" ** not a comment */,'],
    ["an unclosed block comment", '"description": "d", /* the rest'],
    ["a comment that would join two numbers", '"description": "d", "steps": 1/* and */0,'],
  ])("%s is not JSON", async (_, member) => {
    const { definitions, diagnostics } = await loadConfig(
      `{"agent": {"reviewer": {${member} "prompt": "Review."}}}`,
    );
    expect(definitions).toEqual([]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        file: configPath(),
        message: expect.stringMatching(/^not valid JSON: /),
        action: "skipped its agents",
      }),
    ]);
  });

  // The first may be the narrower of two permissions; JSON.parse would keep the last.
  it.each([
    ["with LF line ends", "\n"],
    ["with CRLF line ends", "\r\n"],
    ["with lone CR line ends", "\r"],
  ])("refuses a key given twice, pointing at its line, %s", async (_, eol) => {
    const text = [
      "{",
      "  /* the reviewer:",
      "     read-only */",
      '  "agent": {"reviewer": {"description": "d", "prompt": "p",',
      '    "permission": {"edit": "deny",',
      '      "edit": "allow"}}}',
      "}",
    ].join(eol);
    const { definitions, diagnostics } = await loadConfig(text);
    expect(definitions).toEqual([]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        file: configPath(),
        line: 6,
        message: "a key appears twice in one object; write it once",
        action: "skipped its agents",
      }),
    ]);
  });

  it.each([
    ["after a lone carriage return", ['{"permission": {"bash": "deny",\r"bash": "allow"}}'], 2],
    ["after an array", ['{"agent": {}, "instructions": ["AGENTS.md"],', '"agent": {}}'], 2],
    ["written with an escape", ['{"permission": {"bash": "deny",', '"b\\u0061sh": "allow"}}'], 2],
    ["with its colon on the next line", ['{"permission": {"bash": "deny",', '"bash"', ': "allow"}}'], 2],
  ])("refuses a key given twice %s", async (_, lines, line) => {
    const { diagnostics } = await loadConfig(lines.join("\n"));
    expect(diagnostics).toEqual([
      expect.objectContaining({ line, message: "a key appears twice in one object; write it once" }),
    ]);
  });
});
