import { join } from "node:path";
import { JsoncError, parseJsonc } from "../../../agents/loaders/jsonc.ts";
import { withAgentryMcpNames } from "../../../agents/loaders/opencode-mcp-names.ts";
import { UsageError } from "../../errors.ts";
import type { PeerLayer } from "../load-config.ts";
import type { ConfigFile } from "../schema.ts";
import { fromOpenCodeMcp } from "./peer-mcp.ts";
import { openCodeModel } from "./peer-models.ts";
import { readPeerFile } from "./read-peer-file.ts";

/** Where OpenCode keeps its config, in a project and for the user, the first found at each place. */
export const OPENCODE_PROJECT_FILES = [
  "opencode.json",
  "opencode.jsonc",
  join(".opencode", "opencode.json"),
  join(".opencode", "opencode.jsonc"),
];
export const OPENCODE_USER_FILES = [
  join(".config", "opencode", "opencode.json"),
  join(".config", "opencode", "opencode.jsonc"),
];

/**
 * An `opencode.json(c)` with its meaning in agentry's keys: `permission` (OpenCode's map, or V2's
 * `permissions`; its MCP tool names, `<server>_<tool>`, applied to agentry's `mcp__<server>__<tool>`
 * too), `model` (`provider/model`), `mcp` servers and `instructions`. Its `agent` entries are agents, read with the
 * agent files. A file that is not JSON(C) is a `UsageError` naming it (its rules cannot be dropped).
 */
export async function readOpenCodeLayer(
  path: string,
  label: string,
  scope: PeerLayer["scope"],
): Promise<PeerLayer | undefined> {
  const text = await readPeerFile(path, label, "OpenCode's config");
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = parseJsonc(text);
  } catch (error) {
    if (error instanceof JsoncError) throw new UsageError(`${label}: ${error.message}`, { cause: error });
    throw error;
  }
  const notes: string[] = [];
  const config: ConfigFile = {};
  if (typeof data === "object" && data !== null && !Array.isArray(data)) {
    const file = data as Record<string, unknown>;
    const permission = permissionOf(file, label);
    // `github_*` there means agentry's `mcp__github__…` tools too.
    if (permission !== undefined) config.permission = withAgentryMcpNames(permission).value;
    if (typeof file.model === "string") {
      const model = openCodeModel(file.model);
      if (typeof model === "string") config.model = model;
      else notes.push(model.ignored);
    }
    if (file.mcp !== undefined) {
      const { servers, notes: problems } = fromOpenCodeMcp(file.mcp);
      if (Object.keys(servers).length > 0) config.mcpServers = servers;
      notes.push(...problems.map((problem) => `mcp: ${problem}`));
    }
    if (Array.isArray(file.instructions))
      config.instructions = file.instructions.filter(
        (item): item is string => typeof item === "string" && item !== "",
      );
  }
  return { label, path, scope, config, notes };
}

/** `permission`, or `permissions` as OpenCode V2 spells it; both at once leave no way to tell which holds. */
function permissionOf(file: Record<string, unknown>, label: string): unknown {
  if (file.permission !== undefined && file.permissions !== undefined) {
    throw new UsageError(
      `${label}: sets both permission and permissions (OpenCode V2's spelling of it): keep one, so that it is clear which rules hold`,
    );
  }
  return file.permission ?? file.permissions;
}
