import type { ProjectView } from "./read-project.ts";
import { summarizeWithheld } from "./withheld.ts";

/**
 * The one stderr line of a run in a folder whose widening settings were left out, naming them by file
 * and saying how to let them apply; undefined when nothing waits for trust.
 */
export function trustNotice(view: ProjectView): string | undefined {
  if (view.trust.trusted) return undefined;
  const waiting = view.withheld.filter((item) => item.kind === "untrusted");
  if (waiting.length === 0) return undefined;
  const why = view.trust.problem
    ? `${view.trust.problem}; so`
    : view.trust.changed
      ? "this folder's project settings changed since you trusted it, so until you trust it again"
      : "this folder is not trusted, so";
  return `agentry: ${why} these project settings were left out: ${summarizeWithheld(waiting)}. Run \`agentry trust\` if you trust this repository (or --trust-project for one run); \`agentry config\` shows every setting and its source.`;
}
