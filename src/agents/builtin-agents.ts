import { readFileSync } from "node:fs";
import { READ_ONLY_BASH_RULES, REVIEW_BASH_RULES } from "../permissions/bash-command.ts";
import type { PermissionRule } from "../permissions/types.ts";
import type { AgentDefinition } from "./definition.ts";

/**
 * The agents every project has. Files in the project or home folders with the same name override them.
 * Prompts live beside this file as Markdown.
 */

const prompt = (name: string): string =>
  readFileSync(new URL(`./prompts/${name}.md`, import.meta.url), "utf8").trim();

const READ_ONLY_TOOLS = ["read", "grep", "glob", "list", "bash"];

const deny = (permission: string, pattern = "*"): PermissionRule => ({ permission, pattern, action: "deny" });

/** Children of read-only agents cannot spawn either: they have no `task` tool, and the rule says so. */
const NO_EDITS = [deny("edit"), deny("task")];

export function builtinAgents(): AgentDefinition[] {
  const source = { kind: "builtin", format: "agentry" } as const;
  return [
    {
      name: "general-purpose",
      description:
        "Multi-step research or changes with your tools, when the work would fill your context with material you will not need afterwards.",
      prompt: prompt("general-purpose"),
      mode: "subagent",
      source,
    },
    {
      name: "explore",
      description:
        'Fast read-only codebase explorer: finds files and code, answers "where is X?" or "how does Y work?". Say how thorough to be and what to report.',
      prompt: prompt("explore"),
      tools: READ_ONLY_TOOLS,
      disallowedTools: ["write", "edit"],
      permission: [...READ_ONLY_BASH_RULES, ...NO_EDITS],
      mode: "subagent",
      source,
    },
    {
      name: "plan",
      description:
        "Researches read-only, writes an implementation plan to .agentry/plans/<name>.md and returns its path and summary. For large or risky changes.",
      prompt: prompt("plan"),
      tools: [...READ_ONLY_TOOLS, "write"],
      disallowedTools: ["edit"],
      permission: [
        ...READ_ONLY_BASH_RULES,
        ...NO_EDITS,
        { permission: "edit", pattern: ".agentry/plans/*.md", action: "allow" },
      ],
      mode: "subagent",
      source,
    },
    {
      name: "review",
      description:
        "Reviews a diff, branch or files for bugs, security problems and missing tests; runs the checks; returns findings by severity with file:line. Cannot edit.",
      prompt: prompt("review"),
      tools: READ_ONLY_TOOLS,
      disallowedTools: ["write", "edit"],
      // Read-only commands plus test runners, without the flags that rewrite snapshots or fix files.
      permission: [...REVIEW_BASH_RULES, ...NO_EDITS],
      mode: "subagent",
      source,
    },
  ];
}
