import { relative } from "node:path";
import type { LoadedSkills } from "../../skills/skill.ts";
import type { Withheld } from "./withheld.ts";

/**
 * A repository's skills are prompts and apply untrusted; what their `allowed-tools` would grant without
 * asking is widening, so in a folder the user has not trusted each such skill's grant is withheld (and
 * is part of the trust hash: a new grant asks again). The user's own skills grant always.
 */
export function withheldSkillGrants(workspace: string, loaded: LoadedSkills, trusted: boolean): Withheld[] {
  if (trusted) return [];
  return loaded.skills
    .filter((skill) => skill.source.kind === "project" && (skill.allowedTools?.length ?? 0) > 0)
    .map((skill) => ({
      source: relative(workspace, skill.file) || skill.file,
      setting: `skill "${skill.name}" allowed-tools ${(skill.allowedTools ?? []).join(", ")}`,
      kind: "untrusted" as const,
      value: skill.allowedTools,
    }));
}
