import { readFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";

const TEMPLATE = readFileSync(new URL("./system-prompt.md", import.meta.url), "utf8");

export interface SystemPromptOptions {
  workspace: string;
  /** Replaces the built-in prompt (`--system-prompt`); the environment section is still added. */
  replace?: string;
  /** Added after the prompt (`--append-system-prompt`). */
  append?: string;
  now?: Date;
  platform?: string;
}

/** The root agent's system prompt: the built-in coding-agent prompt filled with the environment. */
export async function buildSystemPrompt(options: SystemPromptOptions): Promise<string> {
  const environment = {
    cwd: options.workspace,
    platform: options.platform ?? `${process.platform} (${process.arch})`,
    date: (options.now ?? new Date()).toISOString().slice(0, 10),
    git: (await isInsideGitRepo(options.workspace)) ? "yes" : "no",
  };
  const base =
    options.replace === undefined
      ? fill(TEMPLATE, environment)
      : `${options.replace.trim()}\n\n# Environment\n${Object.entries(environment)
          .map(([key, value]) => `- ${key}: ${value}`)
          .join("\n")}\n`;
  return options.append ? `${base.trimEnd()}\n\n${options.append.trim()}\n` : base;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (match, key: string) => values[key] ?? match);
}

/** True when `dir` or an ancestor holds `.git` (a directory, or a file in worktrees and submodules). */
export async function isInsideGitRepo(dir: string): Promise<boolean> {
  let current = dir;
  while (true) {
    if (await stat(join(current, ".git")).catch(() => undefined)) return true;
    const parent = dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}
