import { describe, expect, it } from "vitest";
import type { AgentFormat } from "../../../src/agents/definition.ts";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";

/**
 * The switches that narrow an agent or turn it off — Codex's `sandbox_mode`, `readOnly`,
 * `readOnlyBash`, OpenCode's `disable` — and the spellings of true and false they take. A value that is
 * neither fails the file: reading it as false would drop the limit its author meant.
 */

type Said = { definition: ReturnType<typeof loadAgentFile>["definition"]; said: string[] };

function load(format: AgentFormat, text: string, path: string): Said {
  const { definition, diagnostics } = loadAgentFile(text, path, { format });
  return {
    definition,
    said: diagnostics.map((d) => `${d.severity} (line ${d.line}): ${d.message} → ${d.action}`),
  };
}

/** An agentry agent file with this front matter line on line 3. */
const agentry = (line: string): Said =>
  load("agentry", `---\ndescription: Reads code.\n${line}\n---\nRead.\n`, "/p/.agentry/agents/r.md");

/** A Codex role file with this line on line 4. */
const codex = (line: string): Said =>
  load(
    "codex",
    `name = "r"\ndescription = "Reads code."\ndeveloper_instructions = "Read."\n${line}\n`,
    "/p/.codex/agents/r.toml",
  );

describe("sandbox_mode (Codex)", () => {
  it("makes read-only no file edits", () => {
    expect(codex('sandbox_mode = "read-only"')).toMatchObject({
      definition: { disallowedTools: ["write", "edit"] },
      said: [],
    });
  });

  it.each(["workspace-write", "danger-full-access"])(
    "loads %s with a note that it limits nothing here",
    (mode) => {
      const { definition, said } = codex(`sandbox_mode = "${mode}"`);
      expect(definition).toBeDefined();
      expect(definition).not.toHaveProperty("disallowedTools");
      expect(said).toEqual([
        `info (line 4): sandbox_mode ${mode} is not a limit in agentry → the agent's commands and edits follow its permission rules`,
      ]);
    },
  );

  it("fails the file for a mode Codex does not have", () => {
    expect(codex('sandbox_mode = "none"')).toEqual({
      definition: undefined,
      said: [
        "error (line 4): sandbox_mode must be read-only, workspace-write or danger-full-access → skipped the file",
      ],
    });
  });
});

describe("readOnly", () => {
  it.each(["true", '"yes"', '" Yes "', '"ON"'])("makes the agent read-only for %s", (value) => {
    expect(agentry(`readOnly: ${value}`)).toMatchObject({
      definition: { disallowedTools: ["write", "edit"] },
      said: [],
    });
  });

  it.each(["false", '"no"', '"off"', '" False "'])("leaves the agent as it is for %s", (value) => {
    const { definition, said } = agentry(`readOnly: ${value}`);
    expect(definition).toBeDefined();
    expect(definition).not.toHaveProperty("disallowedTools");
    expect(definition).not.toHaveProperty("permission");
    expect(said).toEqual([]);
  });

  it.each(["maybe", "1"])("fails the file for %s", (value) => {
    expect(agentry(`readOnly: ${value}`)).toEqual({
      definition: undefined,
      said: ["error (line 3): readOnly must be true or false → skipped the file"],
    });
  });
});

describe("readOnlyBash", () => {
  it.each([
    ['"on"', true],
    ['"off"', false],
  ])("reads %s as %s", (value, flag) => {
    expect(agentry(`readOnlyBash: ${value}`)).toMatchObject({ definition: { readOnlyBash: flag }, said: [] });
  });

  it("fails the file for a word that is neither", () => {
    expect(agentry("readOnlyBash: perhaps")).toEqual({
      definition: undefined,
      said: ["error (line 3): readOnlyBash must be true or false → skipped the file"],
    });
  });
});

describe("disable", () => {
  it.each(["false", '"no"'])("loads the agent for %s", (value) => {
    expect(agentry(`disable: ${value}`)).toMatchObject({ definition: { name: "r" }, said: [] });
  });

  it("skips the agent for true, as a note rather than a problem", () => {
    expect(agentry('disable: "true"')).toEqual({
      definition: undefined,
      said: ["info (line 3): the agent is disabled (disable: true) → skipped the file"],
    });
  });

  it("fails the file for a value that is neither", () => {
    expect(agentry("disable: 2")).toEqual({
      definition: undefined,
      said: ["error (line 3): disable must be true or false → skipped the file"],
    });
  });
});
