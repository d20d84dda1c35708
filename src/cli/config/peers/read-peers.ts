import { homedir } from "node:os";
import { join } from "node:path";
import { errorMessage } from "../../../text/error-message.ts";
import { UsageError } from "../../errors.ts";
import type { Env } from "../config-locations.ts";
import type { PeerLayer } from "../load-config.ts";
import { claudeLayer } from "./claude-layer.ts";
import { type ClaudeSettingsFile, readClaudeSettings } from "./claude-settings.ts";
import { readCodexLayer } from "./codex-layer.ts";
import { OPENCODE_PROJECT_FILES, OPENCODE_USER_FILES, readOpenCodeLayer } from "./opencode-layer.ts";
import { fromClaudeMcp } from "./peer-mcp.ts";
import { readPeerFile } from "./read-peer-file.ts";

/**
 * The settings files of Claude Code, OpenCode and Codex that apply to `workspace`, lowest precedence
 * first: the user's (Codex, OpenCode, Claude Code), then the project's (Codex, OpenCode, `.mcp.json`,
 * Claude Code's shared then local settings). Agentry's own files go above the peers' of their level.
 */
export async function readPeerLayers(
  workspace: string,
  env: Env,
  claude?: readonly ClaudeSettingsFile[],
): Promise<PeerLayer[]> {
  const home = env.HOME || homedir();
  claude ??= await readClaudeSettings(workspace, env);
  const layers: Array<PeerLayer | undefined> = [
    await readCodexLayer(join(home, ".codex", "config.toml"), join(home, ".codex", "config.toml"), "user"),
    await firstOf(
      OPENCODE_USER_FILES.map((file) => [join(home, file), join(home, file)]),
      "user",
    ),
    ...claude.filter((file) => file.scope === "user").map((file) => claudeLayer(file, workspace, home)),
  ];
  // Run in the home folder, a project file is the user's own: read once, as the user's.
  if (workspace !== home) {
    layers.push(
      await readCodexLayer(
        join(workspace, ".codex", "config.toml"),
        join(".codex", "config.toml"),
        "project",
      ),
      await firstOf(
        OPENCODE_PROJECT_FILES.map((file) => [join(workspace, file), file]),
        "project",
      ),
      await readMcpJson(workspace),
      ...claude.filter((file) => file.scope === "project").map((file) => claudeLayer(file, workspace, home)),
    );
  }
  return layers.filter((layer): layer is PeerLayer => layer !== undefined && hasContent(layer));
}

async function firstOf(
  places: ReadonlyArray<readonly [string, string]>,
  scope: PeerLayer["scope"],
): Promise<PeerLayer | undefined> {
  for (const [path, label] of places) {
    const layer = await readOpenCodeLayer(path, label, scope);
    if (layer !== undefined) return layer;
  }
  return undefined;
}

/** Claude Code's project MCP servers (`.mcp.json`). */
async function readMcpJson(workspace: string): Promise<PeerLayer | undefined> {
  const path = join(workspace, ".mcp.json");
  const text = await readPeerFile(path, ".mcp.json", "Claude Code's MCP servers");
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`.mcp.json: invalid JSON: ${errorMessage(error)}`, { cause: error });
  }
  const { servers, notes } = fromClaudeMcp(data);
  return { label: ".mcp.json", path, scope: "project", config: { mcpServers: servers }, notes };
}

function hasContent(layer: PeerLayer): boolean {
  return layer.notes.length > 0 || Object.values(layer.config).some((value) => value !== undefined);
}
