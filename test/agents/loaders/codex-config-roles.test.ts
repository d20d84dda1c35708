import { describe, expect, it } from "vitest";
import { codexConfigRoles } from "../../../src/agents/loaders/codex-config.ts";

// The roles a Codex `config.toml` declares under [agents]: a repository's file, so every malformed
// role is refused by name, and the others still load.

const PATH = "/project/.codex/config.toml";

describe("the roles of a Codex config.toml", () => {
  it("reads each role's description, its config_file beside the config (or as given), and its header's line if it has one", () => {
    const text = [
      "model = 'o4'",
      "[agents]",
      "max_threads = 4",
      'quick = { description = "Answers quick questions." }',
      "[agents.reviewer]",
      'description = "Reviews diffs."',
      'config_file = "agents/reviewer.toml"',
      "",
      '  [ agents . "fixer" ]',
      'config_file = "/etc/codex/fixer.toml"',
      "nickname_candidates = ['Fix']",
      "[agents.inline]",
    ].join("\n");
    expect(codexConfigRoles(text, PATH)).toStrictEqual({
      roles: [
        { name: "quick", declaredIn: PATH, description: "Answers quick questions." },
        {
          name: "reviewer",
          declaredIn: PATH,
          description: "Reviews diffs.",
          configFile: "/project/.codex/agents/reviewer.toml",
          line: 5,
        },
        { name: "fixer", declaredIn: PATH, configFile: "/etc/codex/fixer.toml", line: 9 },
        { name: "inline", declaredIn: PATH, line: 12 },
      ],
      diagnostics: [],
    });
  });

  it("has no roles and nothing to say without [agents]", () => {
    expect(codexConfigRoles("model = 'o4'\n", PATH)).toEqual({ roles: [], diagnostics: [] });
  });

  it("skips all its roles, saying why, when agents is not a table or the file is not TOML", () => {
    expect(codexConfigRoles("agents = 3\n", PATH)).toEqual({
      roles: [],
      diagnostics: [
        expect.objectContaining({
          severity: "error",
          message: "agents must be a table of roles",
          action: "skipped its roles",
        }),
      ],
    });
    const broken = codexConfigRoles("[agents.reviewer\ndescription = 'x'\n", PATH);
    expect(broken).toEqual({
      roles: [],
      diagnostics: [
        {
          severity: "error",
          file: PATH,
          line: 1,
          message: expect.stringMatching(/^invalid TOML: /),
          action: "skipped its roles",
        },
      ],
    });
  });

  it.each([
    [
      "is not a table",
      "[agents]\nreviewer = 'Reviews diffs.'",
      undefined,
      "must be a table ([agents.<name>] with description and config_file)",
    ],
    [
      "has an unknown key",
      "[agents.reviewer]\nmodel = 'o3'\nsandbox = 'off'",
      1,
      "unknown key model, sandbox (a role has description, config_file and nickname_candidates)",
    ],
    [
      "has a description that is not a string",
      "[agents.reviewer]\ndescription = 3",
      1,
      "description must be a string",
    ],
    ["has an empty config_file", "[agents.reviewer]\nconfig_file = ''", 1, "config_file must be a path"],
    ["has a blank config_file", "[agents.reviewer]\nconfig_file = '   '", 1, "config_file must be a path"],
    [
      "has a config_file that is not a string",
      "[agents.reviewer]\nconfig_file = 7",
      1,
      "config_file must be a path",
    ],
  ])("skips a role that %s, naming it, and keeps the others", (_, role, line, message) => {
    const text = `${role}\n\n[agents.helper]\ndescription = "Helps."\n`;
    const { roles, diagnostics } = codexConfigRoles(text, PATH);
    expect(roles.map((kept) => kept.name)).toEqual(["helper"]);
    expect(diagnostics).toEqual([
      {
        severity: "error",
        file: PATH,
        ...(line === undefined ? {} : { line }),
        message: `role "reviewer": ${message}`,
        action: "skipped the role",
      },
    ]);
  });

  it("takes a role's line from its first header, not from a comment or a later line that looks like one", () => {
    const text = [
      "# [agents.reviewer] is declared below",
      "[agents.reviewer]",
      'description = """',
      "[agents.reviewer] reviews diffs.",
      '"""',
    ].join("\n");
    expect(codexConfigRoles(text, PATH).roles).toEqual([
      expect.objectContaining({ name: "reviewer", line: 2 }),
    ]);
  });

  it("does not take a header quoted inside an earlier role's multi-line string for the role's line", () => {
    const text = [
      "[agents.writer]",
      'description = """',
      "[agents.reviewer] comes after this one.",
      '"""',
      "[agents.reviewer]",
      'description = "Reviews diffs."',
    ].join("\n");
    expect(codexConfigRoles(text, PATH).roles).toEqual([
      expect.objectContaining({ name: "writer", line: 1 }),
      expect.objectContaining({ name: "reviewer", line: 5 }),
    ]);
  });
});
