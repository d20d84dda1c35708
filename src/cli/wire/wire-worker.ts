import { homedir } from "node:os";
import { createRedactor } from "../../agent/tool-calls/redact.ts";
import type { ModelLimiters } from "../../model/model-limiters.ts";
import { createModel } from "../../model/registry.ts";
import type { WorkerRuntime } from "../../queue/worker/index.ts";
import { DEFAULT_COMMAND_ENV } from "../../sandbox/command-env.ts";
import { detectSandbox } from "../../sandbox/detect.ts";
import { policyForAgent, policyForChild } from "../../sandbox/policy-for-agent.ts";
import { builtinTools } from "../../tools/builtin.ts";
import type { Settings } from "../config/resolve-settings.ts";
import type { CliIo } from "../io.ts";

/**
 * What `agentry worker` runs children with: this machine's providers and keys (its config and
 * environment, never the parent's), the built-in tools, and its OS sandbox — each child's commands get
 * the policy a local child would, derived from the rules its job carries (`policyForChild` under a
 * root policy of those rules), read-only when its parent's were. Without a sandbox, said once here.
 * A job's child that may start children starts them here, under the job's limits and this config's.
 */
export async function wireWorkerRuntime(
  settings: Settings,
  io: CliIo,
  limiters: ModelLimiters,
  options: { allowBypass: boolean },
): Promise<WorkerRuntime> {
  const env = [...DEFAULT_COMMAND_ENV, ...settings.sandbox.env];
  const support = settings.sandbox.enabled ? await detectSandbox({ path: io.env.PATH ?? "" }) : undefined;
  if (support === undefined)
    io.stderr.write(
      "warning: children's commands run without the OS sandbox (turned off by sandbox.enabled or AGENTRY_SANDBOX)\n",
    );
  else if (!support.available)
    io.stderr.write(
      `warning: children's commands run without an OS sandbox: ${support.reason}. ${support.hint}\n`,
    );
  const backend = support?.available ? support.backend : undefined;
  const sandboxed = backend !== undefined;
  const bash =
    settings.bashTimeoutSeconds === undefined
      ? { sandboxed }
      : { sandboxed, defaultTimeoutSeconds: settings.bashTimeoutSeconds };
  return {
    createModel: (id) => createModel(id, settings.providers, io.env, { limiters }),
    tools: () => builtinTools({ bash }),
    redact: createRedactor(io.env),
    allowBypass: options.allowBypass,
    // The worker's own config caps the trees whose children start children here.
    limits: ceiling(settings.subagents),
    async commands(input) {
      if (backend === undefined) return { env };
      const base = await policyForAgent({
        backend,
        rules: input.rules,
        mode: input.mode,
        workspace: input.workspace,
        settings: settings.sandbox,
        home: io.env.HOME || homedir(),
      });
      const sandbox = await policyForChild({
        parent: input.readOnly ? { ...base, ceiling: "read-only" } : base,
        rules: input.rules,
        mode: input.mode,
        workspace: input.workspace,
        ...(input.allowedHosts === undefined ? {} : { allowedHosts: input.allowedHosts }),
      });
      return { env, sandbox };
    },
  };
}

/** The limits of `agentry worker`'s config that cap a job's tree on this machine (those it sets). */
function ceiling(limits: Settings["subagents"]): NonNullable<WorkerRuntime["limits"]> {
  const { maxDepth, maxDescendants, maxConcurrent } = limits;
  return {
    ...(maxDepth === undefined ? {} : { maxDepth }),
    ...(maxDescendants === undefined ? {} : { maxDescendants }),
    ...(maxConcurrent === undefined ? {} : { maxConcurrent }),
  };
}
