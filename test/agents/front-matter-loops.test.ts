import { describe, expect, it } from "vitest";
import { loadAgentFile } from "../../src/agents/loaders/load-agent-file.ts";

/**
 * YAML lets an alias name the anchor it sits inside; the parser then returns an object that holds
 * itself, which crashes whatever turns the definition into JSON later (a child's spec sent to a
 * worker, `agents show`). A repository's agent file holding one is refused, whatever key it is under.
 */

const path = "/p/.claude/agents/looped.md";

function load(frontMatter: string) {
  const { definition, diagnostics } = loadAgentFile(
    `---\ndescription: Reviews code.\n${frontMatter}\n---\nReview it.\n`,
    path,
    { format: "claude" },
  );
  return { definition, said: diagnostics.map((d) => `${d.severity} (line ${d.line}): ${d.message}`) };
}

describe("front matter whose alias names the value it is inside", () => {
  it.each([
    ["a flow map under permission", "permission: &x { bash: *x }"],
    ["a block map under permission", "permission: &x\n  bash: *x"],
    ["an MCP server's env", "mcpServers:\n  - gh: &c { command: x, env: *c }"],
    ["a tools list", "tools: &t [Read, *t]"],
  ])("skips the file (%s), saying why", (_, frontMatter) => {
    expect(load(frontMatter)).toEqual({
      definition: undefined,
      said: [
        "error (line 2): front matter: an alias names the value it is inside (a loop), which no key can hold: write that value out",
      ],
    });
  });

  it("never loads the loop when the lenient reader reads the block that holds it", () => {
    // The unquoted ": " sends the file to the lenient reader, which reads each block on its own.
    const { definition, said } = load("model: sonnet: fast\nmcpServers:\n  - gh: &c { command: x, env: *c }");
    expect(said[0]).toMatch(/^warning \(line \d\): front matter is not valid YAML/);
    expect(() => JSON.stringify(definition)).not.toThrow();
  });

  it("still reads an alias that names another value", () => {
    const { definition } = load("disallowedTools: &deny [Write, Edit]\nx-copy: *deny");
    expect(definition?.disallowedTools).toEqual(["write", "edit"]);
  });
});
