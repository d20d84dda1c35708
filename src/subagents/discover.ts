import type { Dirent } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join, relative, resolve } from "node:path";
import { builtinAgents } from "./builtin-agents.ts";
import type { AgentDefinition, AgentFormat, AgentSourceKind } from "./definition.ts";
import { type Diagnostic, diagnostic } from "./diagnostics.ts";
import { MAX_AGENT_FILE_BYTES } from "./loaders/size-limits.ts";

/** How deep `**` reaches below an agents folder. */
const MAX_DEPTH = 8;

function tooLarge(file: string, bytes: number): Diagnostic {
  return diagnostic(
    "error",
    file,
    `is ${Math.round(bytes / 1024)} KiB; agent files are read up to ${MAX_AGENT_FILE_BYTES / 1024} KiB`,
    "skipped the file",
  );
}

/** One folder agent files are read from. */
export interface AgentFolder {
  dir: string;
  format: AgentFormat;
  kind: AgentSourceKind;
  /** `**\/*.md` when true, `*.ext` when false. */
  recursive: boolean;
  extension: ".md" | ".toml";
  /** Where relative `workspace.path` values start. */
  baseDir: string;
}

export interface LoadedAgents {
  /** One definition per name: the winner by precedence. */
  definitions: AgentDefinition[];
  diagnostics: Diagnostic[];
}

export interface DiscoverOptions {
  projectDir: string;
  /** Default: the current user's home. */
  homeDir?: string;
  /** Default true. */
  includeBuiltins?: boolean;
}

/** The folders of one source, highest precedence first. */
export function projectFolders(projectDir: string): AgentFolder[] {
  const p = (
    sub: string,
    format: AgentFormat,
    recursive = true,
    extension: ".md" | ".toml" = ".md",
  ): AgentFolder => ({
    dir: join(projectDir, sub),
    format,
    kind: "project",
    recursive,
    extension,
    baseDir: projectDir,
  });
  return [
    p(".agentry/agents", "agentry"),
    p("subagents", "agentscope", false),
    p(".claude/agents", "claude"),
    p(".opencode/agent", "opencode"),
    p(".opencode/agents", "opencode"),
    p(".codex/agents", "codex", false, ".toml"),
  ];
}

export function userFolders(homeDir: string): AgentFolder[] {
  const u = (
    sub: string,
    format: AgentFormat,
    recursive = true,
    extension: ".md" | ".toml" = ".md",
  ): AgentFolder => ({
    dir: join(homeDir, sub),
    format,
    kind: "user",
    recursive,
    extension,
    baseDir: homeDir,
  });
  return [
    u(".agentry/agents", "agentry"),
    u(".claude/agents", "claude"),
    u(".config/opencode/agent", "opencode"),
    u(".config/opencode/agents", "opencode"),
    u(".codex/agents", "codex", false, ".toml"),
  ];
}

/**
 * Reads every agent file of the project, then of the user's home, then adds the built-ins. The first
 * definition of a name wins (project > user > built-in; within a source, folder order then path order).
 * Never throws on a bad file; unreadable folders are simply absent.
 */
export async function loadAgentDefinitions(options: DiscoverOptions): Promise<LoadedAgents> {
  const projectDir = resolve(options.projectDir);
  const homeDir = resolve(options.homeDir ?? homedir());
  const folders = [...projectFolders(projectDir), ...userFolders(homeDir)];
  const diagnostics: Diagnostic[] = [];
  const winners = new Map<string, AgentDefinition>();
  const seenDirs = new Set<string>();

  for (const folder of folders) {
    // Running in the home directory makes the project folders and the user folders the same.
    const real = await realpath(folder.dir).catch(() => undefined);
    if (real === undefined || seenDirs.has(real)) continue;
    seenDirs.add(real);
    for (const loaded of await loadAgentFolder(folder)) {
      for (const problem of loaded.diagnostics) diagnostics.push(problem);
      if (loaded.definition !== undefined) keepFirst(winners, loaded.definition, diagnostics);
    }
  }
  if (options.includeBuiltins !== false) {
    for (const builtin of builtinAgents()) keepFirst(winners, builtin, diagnostics);
  }
  return { definitions: [...winners.values()], diagnostics };
}

/** Loads every file of one folder (sorted by path), reading `AGENTS.md` prompt files where asked. */
export async function loadAgentFolder(
  folder: AgentFolder,
): Promise<Array<{ file: string; definition?: AgentDefinition; diagnostics: Diagnostic[] }>> {
  const listing = await listAgentFiles(folder);
  const results: Array<{ file: string; definition?: AgentDefinition; diagnostics: Diagnostic[] }> =
    listing.problems.map((problem) => ({ file: problem.file, diagnostics: [problem] }));
  if (listing.files.length === 0) return results;
  // The parsers (YAML, TOML) load only when there are files to parse: most runs start without any.
  const { loadAgentFile } = await import("./loaders/load-agent-file.ts");
  for (const file of listing.files) {
    const text = await readAgentFile(file);
    if (typeof text !== "string") {
      results.push({ file, diagnostics: [text] });
      continue;
    }
    const loaded = loadAgentFile(text, file, {
      format: folder.format,
      kind: folder.kind,
      baseDir: folder.baseDir,
    });
    const diagnostics = [...loaded.diagnostics];
    let definition = loaded.definition;
    if (definition !== undefined && loaded.promptFile !== undefined) {
      definition = await withPromptFile(definition, loaded.promptFile, file, diagnostics);
    }
    results.push(definition === undefined ? { file, diagnostics } : { file, definition, diagnostics });
  }
  return results;
}

/**
 * The file's text, or why it was not read: only regular files are opened (a `.md` symlink to a FIFO or
 * a device would block or never end), and only up to `MAX_AGENT_FILE_BYTES`.
 */
export async function readAgentFile(file: string): Promise<string | Diagnostic> {
  const info = await stat(file).catch((error: unknown) => error as Error);
  if (info instanceof Error)
    return diagnostic("error", file, `cannot read: ${info.message}`, "skipped the file");
  if (!info.isFile()) return diagnostic("error", file, "not a regular file", "skipped the file");
  if (info.size > MAX_AGENT_FILE_BYTES) return tooLarge(file, info.size);
  const text = await readFile(file, "utf8").catch((error: unknown) => error as Error);
  if (text instanceof Error)
    return diagnostic("error", file, `cannot read: ${text.message}`, "skipped the file");
  return text;
}

async function withPromptFile(
  definition: AgentDefinition,
  promptFile: string,
  file: string,
  diagnostics: Diagnostic[],
): Promise<AgentDefinition> {
  const text = await readFile(promptFile, "utf8").catch(() => undefined);
  if (text === undefined) {
    diagnostics.push(
      diagnostic(
        "warning",
        file,
        `workspace.path has no readable ${promptFile}`,
        "used the file body as prompt",
      ),
    );
    if (definition.prompt === "")
      diagnostics.push(
        diagnostic("warning", file, "empty prompt", "the agent runs with only the harness preamble"),
      );
    return definition;
  }
  const prompt = [definition.prompt, text.trim()].filter((part) => part !== "").join("\n\n");
  return { ...definition, prompt };
}

function keepFirst(
  winners: Map<string, AgentDefinition>,
  definition: AgentDefinition,
  diagnostics: Diagnostic[],
): void {
  const winner = winners.get(definition.name);
  if (winner === undefined) {
    winners.set(definition.name, definition);
    return;
  }
  const loser = definition.source.path ?? `the ${definition.source.kind} agent`;
  const kept = winner.source.path ?? `the ${winner.source.kind} agent`;
  if (winner.source.kind === definition.source.kind) {
    diagnostics.push(
      diagnostic(
        "warning",
        loser,
        `agent "${definition.name}" is also defined in ${kept}`,
        `kept ${kept}; ignored this file`,
      ),
    );
  } else {
    diagnostics.push(
      diagnostic(
        "info",
        loser,
        `the ${winner.source.kind} agent "${definition.name}" (${kept}) overrides this ${definition.source.kind} one`,
        `kept ${kept}`,
      ),
    );
  }
}

/**
 * Agent files of a folder in path order. In `.agentry/agents/` the runtime keeps state beside the
 * definitions (`<name>/workspace/`, `<name>/tasks/`); those folders are not definitions and are skipped,
 * as are hidden folders, `node_modules` and README files. Symlinks are followed once: a folder or file
 * reached again (a link back up the tree, two links to one place) is not read twice, and a loop is
 * reported.
 */
async function listAgentFiles(folder: AgentFolder): Promise<{ files: string[]; problems: Diagnostic[] }> {
  const files: string[] = [];
  const problems: Diagnostic[] = [];
  const seenDirs = new Map<string, string>();
  const seenFiles = new Set<string>();
  const walk = async (dir: string, depth: number): Promise<void> => {
    const real = await realpath(dir).catch(() => undefined);
    if (real === undefined) return;
    const first = seenDirs.get(real);
    if (first !== undefined) {
      problems.push(
        diagnostic(
          "warning",
          dir,
          `leads back to ${first} (a symlink loop or a second link)`,
          "read it once",
        ),
      );
      return;
    }
    seenDirs.set(real, dir);
    const entries: Dirent[] = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      const isDir = entry.isDirectory() || (entry.isSymbolicLink() && (await isDirectory(path)));
      if (isDir) {
        if (
          !folder.recursive ||
          depth >= MAX_DEPTH ||
          skipDirectory(folder, relative(folder.dir, path), entry.name)
        )
          continue;
        await walk(path, depth + 1);
      } else if (entry.name.endsWith(folder.extension) && !/^readme\.md$/i.test(entry.name)) {
        const realFile = await realpath(path).catch(() => path);
        if (seenFiles.has(realFile)) continue;
        seenFiles.add(realFile);
        files.push(path);
      }
    }
  };
  await walk(folder.dir, 0);
  return { files: files.sort(), problems };
}

function skipDirectory(folder: AgentFolder, rel: string, name: string): boolean {
  if (name.startsWith(".") || name === "node_modules") return true;
  if (folder.format !== "agentry") return false;
  const parts = rel.split(/[\\/]/);
  return parts.length === 2 && (parts[1] === "workspace" || parts[1] === "tasks");
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}
