import type { CompactionOptions } from "../../agent/compaction/compaction.ts";
import { contextWindowOf } from "../../model/context-windows.ts";
import { ModelConfigError } from "../../model/errors.ts";
import type { ModelLimiters } from "../../model/model-limiters.ts";
import type { Settings } from "../config/resolve-settings.ts";
import { UsageError } from "../errors.ts";

/**
 * How the run compacts conversations, from the settings: the threshold, the turns kept, the context
 * windows (built-in table under `providers.contextWindows`) and the summary model (`compaction.model`,
 * built once and shared by the tree; its limiter is its endpoint's). Used for automatic compaction
 * when `compaction.enabled` is not false, and for `/compact` always.
 */
export async function wireCompaction(
  settings: Settings,
  env: Record<string, string | undefined>,
  limiters?: ModelLimiters,
): Promise<CompactionOptions> {
  const { compaction, providers } = settings;
  const windows = providers.contextWindows ?? {};
  const options: CompactionOptions = { contextWindow: (id) => contextWindowOf(id, windows) };
  if (compaction.threshold !== undefined) options.threshold = compaction.threshold;
  if (compaction.keepTurns !== undefined) options.keepTurns = compaction.keepTurns;
  if (compaction.model !== undefined) {
    const { createModel } = await import("../../model/registry.ts");
    try {
      options.model = createModel(
        compaction.model.value,
        providers,
        env,
        limiters === undefined ? {} : { limiters },
      );
    } catch (error) {
      if (!(error instanceof ModelConfigError)) throw error;
      throw new UsageError(`compaction.model (from ${compaction.model.source}): ${error.message}`, {
        cause: error,
      });
    }
  }
  return options;
}
