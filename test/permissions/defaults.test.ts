import { describe, expect, it } from "vitest";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { evaluate, evaluateRequest } from "../../src/permissions/evaluate.ts";

const bash = (command: string) =>
  evaluateRequest(DEFAULT_RULES, "bash", bashPermissionPatterns(command)).action;

describe("DEFAULT_RULES", () => {
  it("allows reading, but asks before reading .env secrets", () => {
    expect(evaluate(DEFAULT_RULES, "read", "src/a.ts")).toBe("allow");
    expect(evaluate(DEFAULT_RULES, "read", ".")).toBe("allow");
    expect(evaluate(DEFAULT_RULES, "read", ".env")).toBe("ask");
    expect(evaluate(DEFAULT_RULES, "read", "config/prod.env")).toBe("ask");
    expect(evaluate(DEFAULT_RULES, "read", ".env.local")).toBe("ask");
    expect(evaluate(DEFAULT_RULES, "read", "apps/web/.env.production")).toBe("ask");
    expect(evaluate(DEFAULT_RULES, "read", ".env.example")).toBe("allow");
    expect(evaluate(DEFAULT_RULES, "read", "src/environment.ts")).toBe("allow");
  });

  it("asks before edits, outside paths and commands that are not read-only", () => {
    expect(evaluate(DEFAULT_RULES, "edit", "src/a.ts")).toBe("ask");
    expect(evaluate(DEFAULT_RULES, "external_directory", "/etc")).toBe("ask");
    expect(bash("npm install")).toBe("ask");
    expect(bash("ls > out.txt")).toBe("ask");
    expect(bash("rm -rf x")).toBe("ask");
  });

  it("runs read-only commands without asking and lets subagents spawn", () => {
    expect(bash("git status")).toBe("allow");
    expect(bash("ls -la | head")).toBe("allow");
    expect(evaluate(DEFAULT_RULES, "task", "explore")).toBe("allow");
  });

  it("never denies outright", () => {
    expect(DEFAULT_RULES.some((rule) => rule.action === "deny")).toBe(false);
  });
});
