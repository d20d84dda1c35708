import type { Model } from "../../model/model.ts";
import type { ProjectView } from "../config/read-project.ts";
import type { CliIo } from "../io.ts";
import { type RunSettings, type WiredRoot, type WireRootOptions, wireRoot } from "./prepare-run.ts";
import { type RunTracing, wireTracing } from "./wire-tracing.ts";

// What the commands that run the root (`run`, `chat`, `workflow run`, `serve`) do alike when they
// start, so a new wiring option reaches each of them at once.

/** The `wireRoot` options that come from `loadRunSettings` and the chosen model, as every command takes them. */
export function rootWiring(run: RunSettings, model: Model, io: CliIo): WireRootOptions {
  return {
    workspace: run.workspace,
    settings: run.settings,
    rules: run.rules,
    definitions: run.project.agents,
    instructions: run.instructions,
    model,
    io,
    limiters: run.limiters,
  };
}

/** The prompt flags and the project's hooks (none with `--no-hooks`) and skills, as `run` and `chat` take them. */
export function sessionWiring(
  options: { systemPrompt?: string; appendSystemPrompt?: string; hooks?: boolean },
  project: ProjectView,
): Pick<WireRootOptions, "systemPrompt" | "appendSystemPrompt" | "hooks" | "skills"> {
  return {
    ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
    ...(options.appendSystemPrompt === undefined ? {} : { appendSystemPrompt: options.appendSystemPrompt }),
    ...(options.hooks === false ? {} : { hooks: project.hooks.hooks }),
    skills: project.skills.skills,
  };
}

/**
 * The run's tracing, then the root wired under it: tracing comes first so that each child carries the
 * run's trace context to where it runs. A wiring that fails closes the tracing before it throws.
 */
export async function wireTracedRoot(
  options: WireRootOptions,
): Promise<{ wired: WiredRoot; tracing: RunTracing | undefined }> {
  const { io } = options;
  const tracing = await wireTracing(io.env, options.settings.telemetry, (message) =>
    io.stderr.write(`warning: ${message}\n`),
  );
  const wired = await wireRoot({
    ...options,
    ...(tracing === undefined ? {} : { traceparentFor: tracing.traceparentFor }),
  }).catch(async (error: unknown) => {
    await tracing?.close();
    throw error;
  });
  return { wired, tracing };
}
