import type { ProjectView } from "./read-project.ts";
import { trustNotice } from "./trust-notice.ts";

/**
 * What a command that works in a workspace says on stderr before it starts: settings that were
 * ignored (never from a project), what the peers' files hold that agentry does not use, and the one
 * line naming what waits for the folder's trust.
 */
export function projectWarnings(view: ProjectView): string[] {
  const lines = view.settings.warnings.map((warning) => `warning: ${warning}`);
  for (const layer of view.loaded.peers ?? [])
    for (const note of layer.notes) lines.push(`warning: ${layer.label}: ${note}`);
  const notice = trustNotice(view);
  if (notice !== undefined) lines.push(notice);
  return lines;
}
