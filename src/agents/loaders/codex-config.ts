import { dirname, isAbsolute, join } from "node:path";
import { type Diagnostic, diagnostic } from "../diagnostics.ts";
import { type CodexRole, parseToml } from "./codex.ts";
import { LoadContext } from "./load-context.ts";
import { tomlLines } from "./toml-lines.ts";
import { isPlainObject } from "./tool-list.ts";

/** A role of `.codex/config.toml` and the file that holds its configuration, if any. */
export interface CodexConfigRole extends CodexRole {
  /** Absolute path of its `config_file`; the role is its description alone without one. */
  configFile?: string;
  line?: number;
}

/** `[agents]` keys that configure Codex's agent runtime rather than declare a role. */
const AGENT_SETTINGS = new Set(["max_threads", "max_depth", "job_max_runtime_seconds", "interrupt_message"]);
const ROLE_KEYS = new Set(["description", "config_file", "nickname_candidates"]);

/**
 * The roles declared in a Codex `config.toml`:
 *
 *     [agents.reviewer]
 *     description = "Reviews diffs."
 *     config_file = "agents/reviewer.toml"   # relative to this config.toml
 *
 * Pure: discovery reads each `config_file` and loads it as a role file under the role's name.
 */
export function codexConfigRoles(
  text: string,
  path: string,
): { roles: CodexConfigRole[]; diagnostics: Diagnostic[] } {
  const ctx = new LoadContext(path);
  const data = parseToml(text, ctx);
  if (data === undefined) return { roles: [], diagnostics: ctx.diagnostics.map(skippedRoles) };
  const agents = data.agents;
  if (agents === undefined) return { roles: [], diagnostics: [] };
  if (!isPlainObject(agents)) {
    return {
      roles: [],
      diagnostics: [diagnostic("error", path, "agents must be a table of roles", "skipped its roles")],
    };
  }
  const roles: CodexConfigRole[] = [];
  const diagnostics: Diagnostic[] = [];
  const lines = tableLines(text);
  for (const [name, table] of Object.entries(agents)) {
    if (AGENT_SETTINGS.has(name)) continue;
    const line = lines.get(name);
    const fail = (message: string): void => {
      diagnostics.push(diagnostic("error", path, `role "${name}": ${message}`, "skipped the role", line));
    };
    if (!isPlainObject(table)) {
      fail("must be a table ([agents.<name>] with description and config_file)");
      continue;
    }
    const unknown = Object.keys(table).filter((key) => !ROLE_KEYS.has(key));
    if (unknown.length > 0) {
      fail(`unknown key ${unknown.join(", ")} (a role has description, config_file and nickname_candidates)`);
      continue;
    }
    const { description, config_file: configFile } = table;
    if (description !== undefined && typeof description !== "string") {
      fail("description must be a string");
      continue;
    }
    if (configFile !== undefined && (typeof configFile !== "string" || configFile.trim() === "")) {
      fail("config_file must be a path");
      continue;
    }
    const role: CodexConfigRole = { name, declaredIn: path };
    if (description !== undefined) role.description = description;
    if (configFile !== undefined)
      role.configFile = isAbsolute(configFile) ? configFile : join(dirname(path), configFile);
    if (line !== undefined) role.line = line;
    roles.push(role);
  }
  return { roles, diagnostics };
}

function skippedRoles(problem: Diagnostic): Diagnostic {
  return { ...problem, action: "skipped its roles" };
}

/** The line of each `[agents.<name>]` header (not one quoted inside a multi-line string). */
function tableLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  for (const { line, number } of tomlLines(text)) {
    const name = /^\s*\[\s*agents\s*\.\s*"?([^"\]\s]+)"?\s*\]/.exec(line)?.[1];
    if (name !== undefined && !lines.has(name)) lines.set(name, number);
  }
  return lines;
}
