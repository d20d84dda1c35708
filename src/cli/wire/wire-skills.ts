import type { Approver } from "../../permissions/gate.ts";
import { preloadedSkills } from "../../skills/preload-skills.ts";
import type { Skill } from "../../skills/skill.ts";
import { SkillGrants } from "../../skills/skill-grants.ts";
import { skillTool } from "../../skills/skill-tool.ts";
import type { ChildHooksFactory } from "../../subagents/index.ts";
import type { AnyTool } from "../../tools/tool.ts";

/** Skills wired into a run (`wireSkills`). */
export interface WiredSkills {
  /** The `skill` tool, when the model may load some skill. */
  tool: AnyTool | undefined;
  /** Loaded skills' `allowed-tools`, for the permission gate. */
  approve: Approver;
  /** A child's agent file's `skills:`, preloaded. */
  child: ChildHooksFactory;
}

/** The skills of the workspace and the user for the root and its children (docs/skills.md). */
export function wireSkills(skills: readonly Skill[], trusted: boolean): WiredSkills {
  const grants = new SkillGrants(trusted);
  return {
    tool: skillTool(skills, grants),
    approve: grants.approve,
    child: ({ definition }) => {
      const hooks = preloadedSkills(definition.skills ?? [], skills);
      return hooks === undefined ? [] : [hooks];
    },
  };
}

/** Approvers asked in order: the first answer wins (a hook's deny before a skill's grant). */
export function firstAnswer(...approvers: ReadonlyArray<Approver | undefined>): Approver | undefined {
  const present = approvers.filter((approver): approver is Approver => approver !== undefined);
  if (present.length === 0) return undefined;
  return async (request, signal) => {
    for (const approver of present) {
      const answer = await approver(request, signal);
      if (answer !== undefined) return answer;
    }
    return undefined;
  };
}
