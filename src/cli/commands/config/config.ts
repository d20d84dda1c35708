import { instructionsReport } from "../../../instructions/describe-instructions.ts";
import { describePeerFiles } from "../../config/peers/peer-summary.ts";
import { settingSources } from "../../config/provenance.ts";
import { readWorkspace } from "../../config/read-project.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import type { CliIo } from "../../io.ts";
import { loadProjectInstructions } from "../../project-instructions.ts";
import { formatTable } from "../../render/table.ts";

export interface ConfigOptions {
  cwd?: string;
  json?: boolean;
  trustProject?: boolean;
}

export async function configCommand(options: ConfigOptions, io: CliIo): Promise<number> {
  const { workspace, project } = await readWorkspace(options, io);
  const sources = settingSources(project, io.env);
  const withheld = project.withheld.map(({ value: _value, ...item }) => item);
  const trust = project.trust;
  const loaded = await loadProjectInstructions({
    workspace,
    env: io.env,
    trusted: trust.trusted,
    lists: project.settings.instructions,
  });
  const instructions = instructionsReport(loaded);
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify({ workspace, trust, files: project.settings.files, peers: describePeerFiles(project.loaded.peers ?? [], project.withheld), settings: sources, withheld, instructions }, null, 2)}\n`,
    );
    return EXIT_CODES.completed;
  }
  const state = trust.trusted
    ? `trusted (${trust.by ?? "agentry trust"})`
    : trust.changed
      ? "not trusted: its project settings changed since you trusted it (agentry trust)"
      : "not trusted (agentry trust)";
  const out = [`Workspace: ${workspace} — ${state}`];
  out.push(`Config files: ${project.settings.files.join(", ") || "none"}`);
  out.push(
    `Instructions: ${instructions.summary}`,
    ...instructions.problems.map((problem) => `  ${problem}`),
    "",
  );
  out.push(
    formatTable(
      ["SETTING", "VALUE", "SOURCE"],
      sources.map((entry) => [
        entry.key,
        shown(entry.value),
        entry.narrowOnly ? `${entry.source} (narrows only: folder not trusted)` : entry.source,
      ]),
    ).trimEnd(),
  );
  const peers = describePeerFiles(project.loaded.peers ?? [], project.withheld);
  if (peers.length > 0) out.push("", "Other tools' files read:", ...peers.map((line) => `  ${line}`));
  const waiting = withheld.filter((item) => item.kind === "untrusted");
  const never = withheld.filter((item) => item.kind === "never");
  if (waiting.length > 0)
    out.push(
      "",
      "Withheld until you trust this folder (agentry trust):",
      ...waiting.map((item) => `  ${item.source}: ${item.setting}`),
    );
  if (never.length > 0)
    out.push(
      "",
      "Ignored (no project may set these):",
      ...never.map((item) => `  ${item.source}: ${item.setting} — ${item.reason ?? ""}`),
    );
  io.stdout.write(`${out.join("\n")}\n`);
  return EXIT_CODES.completed;
}

function shown(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
