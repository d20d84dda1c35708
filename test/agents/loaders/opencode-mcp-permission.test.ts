import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasErrors } from "../../../src/agents/diagnostics.ts";
import { effectiveAccess } from "../../../src/agents/effective-access.ts";
import { evaluate } from "../../../src/permissions/evaluate.ts";
import { agentFolders } from "../agent-folders.ts";

/**
 * OpenCode names an MCP server's tools `<server>_<tool>` and its `permission` keys are globs over tool
 * names, so `"github_*": "deny"` refuses every tool of the github server. agentry names them
 * `mcp__github__<tool>`: read as written, the rule matched none of them and the agent was asked
 * instead of refused.
 */

const folders = agentFolders("agentry-opencode-mcp-permission-");

async function agent(permission: Record<string, unknown> | unknown[]) {
  await folders.write(
    join(folders.project, ".opencode/agent/triager.md"),
    `---\ndescription: Triages issues\nmode: subagent\npermission: ${JSON.stringify(permission)}\n---\nTriage.\n`,
  );
  const { byName, diagnostics, summary } = await folders.load({});
  expect(hasErrors(diagnostics)).toBe(false);
  const definition = byName.get("triager");
  if (definition === undefined) throw new Error(`not loaded: ${summary.join("\n")}`);
  const { rules } = effectiveAccess(definition);
  return { tool: (name: string) => evaluate(rules, name, "*"), summary };
}

describe("an OpenCode agent's permission map naming MCP tools the OpenCode way", () => {
  it.each([
    [
      "every tool of a server",
      "github_*",
      "mcp__github__delete_repository",
      "mcp__gitlab__delete_repository",
    ],
    ["one tool", "github_delete_repository", "mcp__github__delete_repository", "mcp__github__get_issue"],
    ["a server named by a glob alone", "my-mcp*", "mcp__my-mcp__run", "mcp__other__run"],
  ])("denies %s under agentry's name too", async (_, name, denied, other) => {
    const triager = await agent({ "*": "allow", [name]: "deny" });
    expect(triager.tool(denied)).toBe("deny");
    expect(triager.tool(other)).toBe("allow");
    expect(triager.summary).toContainEqual(
      expect.stringContaining(`${name} is OpenCode's name for MCP tools`),
    );
  });

  it("keeps the order of the rules: a later, narrower key still wins", async () => {
    const triager = await agent({ "*": "allow", "github_*": "deny", "github_get_*": "ask" });
    expect(triager.tool("mcp__github__get_issue")).toBe("ask");
    expect(triager.tool("mcp__github__delete_repository")).toBe("deny");
  });

  it("keeps a rule written under agentry's name as it is", async () => {
    const triager = await agent({ "*": "allow", "github_*": "deny", "mcp__github_*": "ask" });
    expect(triager.tool("mcp__github__delete_repository")).toBe("ask");
  });

  it("reads V2's rule list the same way", async () => {
    const triager = await agent([
      { permission: "*", pattern: "*", action: "allow" },
      { permission: "github_*", pattern: "*", action: "deny" },
    ]);
    expect(triager.tool("mcp__github__delete_repository")).toBe("deny");
    expect(triager.tool("mcp__gitlab__delete_repository")).toBe("allow");
  });

  it("leaves OpenCode's own permissions with an underscore alone", async () => {
    const triager = await agent({ "*": "allow", external_directory: "deny", doom_loop: "deny" });
    expect(triager.tool("mcp__external__directory")).toBe("allow");
    expect(triager.tool("external_directory")).toBe("deny");
    expect(triager.summary.join("\n")).not.toContain("OpenCode's name for MCP tools");
  });
});
