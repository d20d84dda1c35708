import { rulesetFromConfig } from "../../../permissions/ruleset-from-config.ts";
import type { PeerLayer } from "../load-config.ts";
import type { Withheld } from "../withheld.ts";

/**
 * What agentry found in each peer's file and did with it, a line per file for `agentry config`,
 * `doctor` and `agents check`: `.claude/settings.json: 3 deny rules applied; 2 allow rules withheld
 * until you trust this folder; model sonnet`.
 */
export function describePeerFiles(peers: readonly PeerLayer[], withheld: readonly Withheld[]): string[] {
  return peers.map((layer) => {
    const mine = withheld.filter((item) => item.source === layer.label);
    const waiting = mine.filter((item) => item.kind === "untrusted");
    const never = mine.filter((item) => item.kind === "never");
    const parts: string[] = [];
    const rules = readable(layer.config.permission);
    for (const action of ["deny", "ask", "allow"] as const) {
      const count = rules.filter((rule) => rule.action === action).length;
      const held =
        action === "allow" ? waiting.filter((item) => item.setting.startsWith("permission ")).length : 0;
      const refused =
        action === "allow" ? never.filter((item) => item.setting.startsWith("permission ")).length : 0;
      const applied = count - held - refused;
      if (applied > 0) parts.push(`${plural(applied, `${action} rule`)} applied`);
      if (held > 0) parts.push(`${plural(held, "allow rule")} withheld until you trust this folder`);
      if (refused > 0) parts.push(`${plural(refused, "allow rule")} ignored (never from a project)`);
    }
    const servers = Object.keys(layer.config.mcpServers ?? {});
    const heldServers = waiting.filter((item) => item.setting.startsWith("MCP server ")).length;
    if (servers.length > 0)
      parts.push(
        heldServers > 0
          ? `${plural(heldServers, "MCP server")} withheld until you trust this folder (agentry trust)`
          : `${plural(servers.length, "MCP server")}`,
      );
    if (layer.config.model !== undefined)
      parts.push(
        waiting.some((item) => item.setting.startsWith("model "))
          ? `model ${layer.config.model} withheld (another provider)`
          : `model ${layer.config.model}`,
      );
    if (layer.config.permissionMode !== undefined)
      parts.push(`permission mode ${layer.config.permissionMode}`);
    const variables = Object.keys(layer.config.env ?? {}).length;
    if (variables > 0) parts.push(`${plural(variables, "variable")} for commands`);
    if (layer.config.instructions !== undefined)
      parts.push(plural(layer.config.instructions.length, "instruction path"));
    parts.push(...layer.notes.map((note) => `not used: ${note}`));
    return `${layer.label}: ${parts.length > 0 ? parts.join("; ") : "nothing agentry uses"}`;
  });
}

function readable(permission: unknown) {
  try {
    return rulesetFromConfig(permission);
  } catch {
    return [];
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
