import { evaluateRequest } from "../../permissions/evaluate.ts";
import type { Approver } from "../../permissions/gate.ts";
import { PermissionConfigError, rulesetFromConfig } from "../../permissions/ruleset-from-config.ts";
import type { Ruleset } from "../../permissions/types.ts";

/**
 * A saved command's `allowed-tools` while it runs: its `!`cmd`` and the root agent's turn use them
 * without asking. Never past a deny rule, a mode's refusal, a protected path or leaving the sandbox or
 * the workspace (the gate asks `approve` only where it would ask a person), and only for the root.
 */
export class CommandGrants {
  private rules: Ruleset = [];

  /** Grants `tools` until `clear()`; the problem when a rule cannot be read (nothing is granted then). */
  grant(tools: readonly string[], name: string): string | undefined {
    try {
      this.rules = rulesetFromConfig({ allow: [...tools] }, `/${name} allowed-tools`);
      return undefined;
    } catch (error) {
      if (error instanceof PermissionConfigError) return error.message;
      throw error;
    }
  }

  clear(): void {
    this.rules = [];
  }

  readonly approve: Approver = async (request) => {
    if (this.rules.length === 0 || request.agentPath.length !== 1) return undefined;
    return evaluateRequest(this.rules, request.permission, request.patterns).action === "allow"
      ? { behavior: "allow" }
      : undefined;
  };
}
