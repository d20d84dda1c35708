import { DEFAULT_RULES } from "../../permissions/defaults.ts";
import { confineProjectRules } from "../../permissions/project-rules.ts";
import { PermissionConfigError, rulesetFromConfig } from "../../permissions/ruleset-from-config.ts";
import type { Ruleset } from "../../permissions/types.ts";
import type { Settings } from "../config/resolve-settings.ts";
import { UsageError } from "../errors.ts";

/**
 * The root agent's rules: the defaults, then the user file's rules, then the project file's. The
 * last matching rule wins, so the user overrides the defaults; the project's rules narrow at once and
 * override only in a folder the user trusts (`confineProjectRules`).
 */
export function permissionRules(settings: Settings): Ruleset {
  const rules: Ruleset = [...DEFAULT_RULES];
  for (const layer of settings.permission) {
    try {
      const own = rulesetFromConfig(layer.value, "permission");
      rules.push(...(layer.project ? confineProjectRules(own, rules, settings.trusted).rules : own));
    } catch (error) {
      if (error instanceof PermissionConfigError) {
        throw new UsageError(error.issues.map((issue) => `${layer.source}: ${issue}`).join("\n"), {
          cause: error,
        });
      }
      throw error;
    }
  }
  return rules;
}
