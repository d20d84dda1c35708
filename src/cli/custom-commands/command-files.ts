import type { Dirent } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { parseFrontMatter } from "../../agents/front-matter.ts";
import type { CommandProvider, CommandSource, SavedCommand } from "./saved-command.ts";
import { fillArguments } from "./substitute.ts";

/** Command folders, highest precedence first: the project's, then the user's; the first of a name wins. */
function commandFolders(
  projectDir: string,
  homeDir: string,
): Array<{ dir: string; kind: "project" | "user"; label: string; prefix: string }> {
  const project = [".agentry/commands", ".claude/commands", ".opencode/command", ".opencode/commands"];
  const user = [
    ".agentry/commands",
    ".claude/commands",
    ".config/opencode/command",
    ".config/opencode/commands",
  ];
  return [
    ...project.map((dir) => ({
      dir: join(projectDir, dir),
      kind: "project" as const,
      label: dir,
      prefix: "",
    })),
    ...user.map((dir) => ({ dir: join(homeDir, dir), kind: "user" as const, label: `~/${dir}`, prefix: "" })),
    // Codex's custom prompts, run there as `/prompts:<name>`.
    { dir: join(homeDir, ".codex", "prompts"), kind: "user", label: "~/.codex/prompts", prefix: "prompts:" },
  ];
}

const MAX_COMMAND_BYTES = 256 * 1024;
const MAX_DEPTH = 4;

/** The saved commands of the project's and the user's command folders, and what could not be read. */
export interface LoadedCommands {
  commands: SavedCommand[];
  problems: string[];
}

/**
 * Every `*.md` under a commands folder is a command named by its path (`frontend/component.md` →
 * `frontend:component`); its front matter (`description`, `argument-hint`, `model`, `allowed-tools`,
 * `agent`) is optional — without a description, the body's first line describes it.
 */
export async function loadCommandFiles(projectDir: string, homeDir: string): Promise<LoadedCommands> {
  const commands: SavedCommand[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const folder of commandFolders(projectDir, homeDir)) {
    for (const file of await markdownFiles(folder.dir, 0)) {
      const name = folder.prefix + relative(folder.dir, file).slice(0, -".md".length).split(sep).join(":");
      const label = `${folder.label}/${relative(folder.dir, file).split(sep).join("/")}`;
      if (seen.has(name)) continue;
      const command = await readCommand(file, name, { kind: folder.kind, label }, problems);
      if (command === undefined) continue;
      seen.add(name);
      commands.push(command);
    }
  }
  return { commands, problems };
}

/** The command files as a `CommandProvider` (read again on each `commands()`: a new file counts at once). */
export function commandFiles(projectDir: string, homeDir: string): CommandProvider {
  return { commands: async () => (await loadCommandFiles(projectDir, homeDir)).commands };
}

async function readCommand(
  file: string,
  name: string,
  source: CommandSource,
  problems: string[],
): Promise<SavedCommand | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (info === undefined || !info.isFile()) return undefined;
  if (info.size > MAX_COMMAND_BYTES) {
    problems.push(`${source.label}: ${Math.round(info.size / 1024)} KiB is too large for a command; skipped`);
    return undefined;
  }
  const parsed = parseFrontMatter(await readFile(file, "utf8"), file);
  for (const problem of parsed.diagnostics)
    problems.push(`${source.label}: ${problem.message} (${problem.action})`);
  if (parsed.diagnostics.some((problem) => problem.severity === "error")) return undefined;
  const { data, body } = parsed;
  const text = (key: string) =>
    typeof data[key] === "string" && data[key].trim() !== "" ? data[key].trim() : undefined;
  const description = text("description") ?? firstLine(body) ?? `/${name}`;
  const allowed = data["allowed-tools"];
  const allowedTools = Array.isArray(allowed)
    ? allowed.filter((item): item is string => typeof item === "string")
    : typeof allowed === "string"
      ? allowed
          .split(",")
          .map((item) => item.trim())
          .filter((item) => item !== "")
      : undefined;
  // `argument-hint: [pr-number] [priority]` reads as YAML lists; it was meant as the text.
  const hint = data["argument-hint"];
  const argumentHint = Array.isArray(hint)
    ? hint.map((item) => `[${Array.isArray(item) ? item.join(", ") : String(item)}]`).join(" ")
    : text("argument-hint");
  const model = text("model");
  const agent = text("agent");
  return {
    name,
    description,
    ...(argumentHint === undefined ? {} : { argumentHint }),
    ...(model === undefined ? {} : { model }),
    ...(allowedTools === undefined || allowedTools.length === 0 ? {} : { allowedTools }),
    ...(agent === undefined ? {} : { agent }),
    source,
    text: async (args) => fillArguments(body, args),
    preExecute: true,
  };
}

async function markdownFiles(dir: string, depth: number): Promise<string[]> {
  if (depth > MAX_DEPTH) return [];
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await markdownFiles(path, depth + 1)));
    else if (entry.name.endsWith(".md") && entry.name !== "README.md") files.push(path);
  }
  return files;
}

function firstLine(body: string): string | undefined {
  const line = body.split("\n").find((candidate) => candidate.trim() !== "");
  if (line === undefined) return undefined;
  const plain = line.replace(/^#+\s*/, "").trim();
  return plain.length > 100 ? `${plain.slice(0, 97)}...` : plain;
}
