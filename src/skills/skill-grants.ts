import { evaluateRequest } from "../permissions/evaluate.ts";
import type { Approver } from "../permissions/gate.ts";
import { PermissionConfigError, rulesetFromConfig } from "../permissions/ruleset-from-config.ts";
import type { Ruleset } from "../permissions/types.ts";
import type { Skill } from "./skill.ts";

/** What loading a skill did about its `allowed-tools`. */
export type GrantOutcome =
  | { kind: "none" }
  | { kind: "granted"; tools: string[] }
  /** A repository's skill in a folder the user has not trusted: granting tools would widen. */
  | { kind: "withheld"; tools: string[] }
  | { kind: "unreadable"; problem: string };

/**
 * `allowed-tools` of the skills an agent loaded: tools it may then use without being asked — never past
 * a deny rule, a mode's refusal, a protected path, or leaving the sandbox or the workspace (the gate
 * consults `approve` only where it would ask a person). Granting is widening, so a repository's skill
 * grants only in a folder the user trusted; the user's own skills always do.
 */
export class SkillGrants {
  private readonly byAgent = new Map<string, Ruleset>();
  private readonly trusted: boolean;

  /** `trusted`: the user trusts the workspace's folder (its skills may grant). */
  constructor(trusted: boolean) {
    this.trusted = trusted;
  }

  grant(agentPath: readonly string[], skill: Skill): GrantOutcome {
    const tools = skill.allowedTools ?? [];
    if (tools.length === 0) return { kind: "none" };
    if (skill.source.kind === "project" && !this.trusted) return { kind: "withheld", tools };
    let rules: Ruleset;
    try {
      rules = rulesetFromConfig({ allow: tools }, `skill "${skill.name}" allowed-tools`);
    } catch (error) {
      if (error instanceof PermissionConfigError) return { kind: "unreadable", problem: error.message };
      throw error;
    }
    const key = agentPath.join("/");
    this.byAgent.set(key, [...(this.byAgent.get(key) ?? []), ...rules]);
    return { kind: "granted", tools };
  }

  /** Allows an ask of an agent whose loaded skills allow every asked pattern; otherwise no answer. */
  readonly approve: Approver = async (request) => {
    const rules = this.byAgent.get(request.agentPath.join("/"));
    if (rules === undefined) return undefined;
    return evaluateRequest(rules, request.permission, request.patterns).action === "allow"
      ? { behavior: "allow" }
      : undefined;
  };
}
