import { parse, TomlError } from "smol-toml";
import { errorMessage } from "../../../text/error-message.ts";
import { UsageError } from "../../errors.ts";
import type { PeerLayer } from "../load-config.ts";
import type { ConfigFile } from "../schema.ts";
import { fromCodexMcp } from "./peer-mcp.ts";
import { codexModel } from "./peer-models.ts";
import { readPeerFile } from "./read-peer-file.ts";

/**
 * A Codex `config.toml` with its meaning in agentry's keys: `model` (of its `model_provider`),
 * `sandbox_mode = "read-only"` as plan mode, `approval_policy = "never"` as accept-edits (commands
 * still run in the OS sandbox), `[mcp_servers.*]`. `danger-full-access` is not taken: agentry's OS
 * sandbox is switched off only by agentry's own user config.
 */
export async function readCodexLayer(
  path: string,
  label: string,
  scope: PeerLayer["scope"],
): Promise<PeerLayer | undefined> {
  const text = await readPeerFile(path, label, "Codex's config");
  if (text === undefined) return undefined;
  let data: Record<string, unknown>;
  try {
    data = parse(text);
  } catch (error) {
    const where = error instanceof TomlError ? ` (line ${error.line})` : "";
    throw new UsageError(`${label}: invalid TOML${where}: ${errorMessage(error).split("\n")[0]}`, {
      cause: error,
    });
  }
  const notes: string[] = [];
  const config: ConfigFile = {};
  if (typeof data.model === "string") {
    const provider = typeof data.model_provider === "string" ? data.model_provider : undefined;
    const model = codexModel(data.model, provider);
    if (typeof model === "string") config.model = model;
    else notes.push(model.ignored);
  }
  const sandbox = data.sandbox_mode;
  const approval = data.approval_policy;
  if (sandbox === "read-only") config.permissionMode = "plan";
  else if (sandbox === "danger-full-access")
    notes.push(
      'sandbox_mode "danger-full-access": agentry keeps its OS sandbox (switch it off in agentry\'s user config)',
    );
  if (config.permissionMode === undefined && approval === "never") config.permissionMode = "accept-edits";
  if (data.mcp_servers !== undefined) {
    const { servers, notes: problems } = fromCodexMcp(data.mcp_servers);
    if (Object.keys(servers).length > 0) config.mcpServers = servers;
    notes.push(...problems.map((problem) => `mcp_servers: ${problem}`));
  }
  return { label, path, scope, config, notes };
}
