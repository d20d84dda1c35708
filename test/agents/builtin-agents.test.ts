import { describe, expect, it } from "vitest";
import { builtinAgents } from "../../src/agents/builtin-agents.ts";
import { type AgentDefinition, AgentDefinitionSchema } from "../../src/agents/definition.ts";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";
import { evaluate, evaluateRequest } from "../../src/permissions/evaluate.ts";
import { rulesetFromConfig } from "../../src/permissions/ruleset-from-config.ts";

const builtins = new Map(builtinAgents().map((d) => [d.name, d]));
const get = (name: string): AgentDefinition => {
  const definition = builtins.get(name);
  if (definition === undefined) throw new Error(`no built-in ${name}`);
  return definition;
};
const rules = (name: string) => rulesetFromConfig(get(name).permission);
const bash = (name: string, command: string) =>
  evaluateRequest(rules(name), "bash", bashPermissionPatterns(command)).action;

describe("built-in agents", () => {
  it("are valid definitions with specific prompts loaded from Markdown", () => {
    expect([...builtins.keys()]).toEqual(["general-purpose", "explore", "plan", "review"]);
    for (const definition of builtins.values()) {
      expect(AgentDefinitionSchema.parse(definition)).toEqual(definition);
      expect(definition.source).toEqual({ kind: "builtin", format: "agentry" });
      expect(definition.prompt.length).toBeGreaterThan(300);
      expect(definition.prompt).toMatch(/What to return/);
    }
  });

  it("general-purpose inherits the parent's tools", () => {
    expect(get("general-purpose")).not.toHaveProperty("tools");
  });

  it("explore is read-only: no file-changing tools, edits denied, bash under read-only rules", () => {
    const explore = get("explore");
    expect(explore.tools).toEqual(["read", "grep", "glob", "list", "bash"]);
    expect(explore.disallowedTools).toEqual(["write", "edit"]);
    expect(evaluate(rules("explore"), "edit", "src/a.ts")).toBe("deny");
    expect(bash("explore", "git log --oneline -5")).toBe("allow");
    expect(bash("explore", "rg -n TODO src")).toBe("allow");
    expect(bash("explore", "echo hi > notes.txt")).toBe("deny");
    expect(bash("explore", "rm -rf src")).toBe("deny");
    expect(evaluate(rules("explore"), "task", "general-purpose")).toBe("deny");
  });

  it("plan may write only .agentry/plans/*.md", () => {
    const plan = get("plan");
    expect(plan.tools).toContain("write");
    expect(plan.tools).not.toContain("edit");
    expect(evaluate(rules("plan"), "edit", ".agentry/plans/retry.md")).toBe("allow");
    expect(evaluate(rules("plan"), "edit", "src/index.ts")).toBe("deny");
    expect(evaluate(rules("plan"), "edit", ".agentry/plans/notes.txt")).toBe("deny");
    expect(bash("plan", "cat package.json")).toBe("allow");
    expect(bash("plan", "touch .agentry/plans/x.md")).toBe("deny");
  });

  it("review cannot edit but may run the project's tests", () => {
    const review = get("review");
    expect(review.disallowedTools).toEqual(["write", "edit"]);
    expect(evaluate(rules("review"), "edit", "src/a.ts")).toBe("deny");
    expect(bash("review", "npm test")).toBe("allow");
    expect(bash("review", "npx vitest run test/a.test.ts")).toBe("allow");
    expect(bash("review", "git diff HEAD~1")).toBe("allow");
    expect(bash("review", "npx vitest -u")).toBe("deny");
    expect(bash("review", "rm -rf src")).toBe("deny");
  });
});
