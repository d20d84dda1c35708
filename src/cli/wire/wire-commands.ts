import { homedir } from "node:os";
import type { PermissionMode } from "../../permissions/modes.ts";
import type { Ruleset } from "../../permissions/types.ts";
import { DEFAULT_COMMAND_ENV } from "../../sandbox/command-env.ts";
import { detectSandboxCached } from "../../sandbox/detect-cached.ts";
import type { CommandPolicy } from "../../sandbox/policy.ts";
import { policyForAgent } from "../../sandbox/policy-for-agent.ts";
import { userStateDir } from "../config/config-locations.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { CliIo } from "../io.ts";

export interface WireCommandsOptions {
  workspace: string;
  settings: Settings;
  /** The root agent's rules. */
  rules: Ruleset;
  mode: PermissionMode;
  io: CliIo;
}

/**
 * How the root agent's commands run: in the OS sandbox derived from its rules when the machine has
 * one, else confined by analysis only — said once on stderr, with how to enable the sandbox. Whether
 * the machine has one is kept in the user's state folder once bubblewrap worked (`detect-cached.ts`).
 */
export async function wireCommands(options: WireCommandsOptions): Promise<CommandPolicy> {
  const { settings, io } = options;
  const env = [...DEFAULT_COMMAND_ENV, ...settings.sandbox.env];
  const values = Object.keys(settings.env).length > 0 ? { values: settings.env } : {};
  if (!settings.sandbox.enabled) {
    io.stderr.write(
      "warning: commands run without the OS sandbox (turned off by sandbox.enabled or AGENTRY_SANDBOX); only the analysis of command lines confines them\n",
    );
    return { env, ...values };
  }
  const support = await detectSandboxCached({ path: io.env.PATH ?? "", stateDir: userStateDir(io.env) });
  if (!support.available) {
    io.stderr.write(
      `warning: commands run without an OS sandbox: ${support.reason}. Only the analysis of command lines confines them. ${support.hint}\n`,
    );
    return { env, ...values };
  }
  const sandbox = await policyForAgent({
    backend: support.backend,
    rules: options.rules,
    mode: options.mode,
    workspace: options.workspace,
    settings: settings.sandbox,
    home: io.env.HOME || homedir(),
  });
  return { env, ...values, sandbox };
}
