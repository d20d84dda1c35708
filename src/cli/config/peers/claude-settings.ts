import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { errorMessage } from "../../../text/error-message.ts";
import { UsageError } from "../../errors.ts";
import type { Env } from "../config-locations.ts";
import { readPeerFile } from "./read-peer-file.ts";

/**
 * Claude Code's settings files as agentry reads them: `permissions` (allow/ask/deny lists in Claude's
 * rule spelling, `additionalDirectories`, `defaultMode`), `model`, `env` and `hooks`. Other keys are
 * Claude Code's own (status line, themes, …) and are kept as they are, unread. Values of a known key
 * in the wrong shape make the file an error, as agentry's own config is.
 */
export const claudeSettingsSchema = z.looseObject({
  permissions: z
    .looseObject({
      allow: z.array(z.string()).optional(),
      ask: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
      additionalDirectories: z.array(z.string()).optional(),
      defaultMode: z.string().optional(),
    })
    .optional(),
  model: z.string().min(1).optional(),
  env: z.record(z.string(), z.string()).optional(),
  /** Claude Code's hooks, by event: validated where hooks are read (`hooks` key of agentry's config has the same shape). */
  hooks: z.record(z.string(), z.unknown()).optional(),
});
export type ClaudeSettings = z.infer<typeof claudeSettingsSchema>;

/** One Claude Code settings file that was found and read. */
export interface ClaudeSettingsFile {
  /** How messages name it: relative for a project's (`.claude/settings.json`), absolute for the user's. */
  label: string;
  path: string;
  scope: "user" | "project";
  settings: ClaudeSettings;
}

/**
 * The Claude Code settings files that apply to `workspace`, lowest precedence first, as Claude Code
 * orders them: the user's `~/.claude/settings.json`, then the project's `.claude/settings.json`, then
 * `.claude/settings.local.json` (the developer's own, not committed). Missing files are skipped; a file
 * that is not JSON or holds a known key in the wrong shape is a `UsageError` naming it.
 */
export async function readClaudeSettings(workspace: string, env: Env): Promise<ClaudeSettingsFile[]> {
  const home = env.HOME || homedir();
  const places = [
    {
      label: join(home, ".claude", "settings.json"),
      path: join(home, ".claude", "settings.json"),
      scope: "user" as const,
    },
    {
      label: join(".claude", "settings.json"),
      path: join(workspace, ".claude", "settings.json"),
      scope: "project" as const,
    },
    {
      label: join(".claude", "settings.local.json"),
      path: join(workspace, ".claude", "settings.local.json"),
      scope: "project" as const,
    },
  ];
  const found: ClaudeSettingsFile[] = [];
  const seen = new Set<string>();
  for (const place of places) {
    // Run in the home folder, the user's file and the project's are one file: read it once, as the user's.
    if (seen.has(place.path)) continue;
    seen.add(place.path);
    const settings = await readSettingsFile(place.path, place.label);
    if (settings !== undefined) found.push({ ...place, settings });
  }
  return found;
}

async function readSettingsFile(path: string, label: string): Promise<ClaudeSettings | undefined> {
  const text = await readPeerFile(path, label, "Claude Code's settings");
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${label}: invalid JSON: ${errorMessage(error)}`, { cause: error });
  }
  const parsed = claudeSettingsSchema.safeParse(data);
  if (!parsed.success)
    throw new UsageError(
      `${label}: ${parsed.error.issues.map((issue) => `"${issue.path.join(".")}" ${issue.message}`).join("; ")}`,
    );
  return parsed.data;
}
