import type { Dirent } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { AgentDefinition, AgentFormat, AgentSourceKind } from "./definition.ts";
import { type Diagnostic, diagnostic } from "./diagnostics.ts";
import { MAX_AGENT_FILE_BYTES } from "./loaders/size-limits.ts";

/** How deep `**` reaches below an agents folder. */
const MAX_DEPTH = 8;

/** One file's outcome: its definition when it loaded, and what was wrong either way. */
export interface LoadedFile {
  file: string;
  definition?: AgentDefinition;
  diagnostics: Diagnostic[];
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

/** Loads every file of one folder (sorted by path), reading `AGENTS.md` prompt files where asked. */
export async function loadAgentFolder(
  folder: AgentFolder,
  /** Real paths of files another source already loaded (a Codex role's `config_file`). */
  exclude: ReadonlySet<string> = new Set(),
): Promise<LoadedFile[]> {
  const listing = await listAgentFiles(folder, exclude);
  const results: LoadedFile[] = listing.problems.map((problem) => ({
    file: problem.file,
    diagnostics: [problem],
  }));
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
      definition = await withPromptFile(definition, loaded.promptFile, {
        file,
        root: folder.baseDir,
        diagnostics,
      });
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

/**
 * Appends the text of a prompt file (an AgentScope folder's `AGENTS.md`, an OpenCode `{file:…}`) to
 * the prompt. Only files under `root` (the project, or the home folder for user agents) are read: a
 * cloned project's agent file must not pull `~/.ssh/id_rsa` into a prompt sent to a model provider.
 */
export async function withPromptFile(
  definition: AgentDefinition,
  promptFile: string,
  at: { file: string; root: string; diagnostics: Diagnostic[] },
): Promise<AgentDefinition> {
  const { file, diagnostics } = at;
  const outside = await isOutside(promptFile, at.root);
  const text = outside ? undefined : await readAgentFile(promptFile);
  if (typeof text !== "string") {
    const problem = outside
      ? `the prompt file ${promptFile} is outside ${at.root}`
      : `the prompt file ${promptFile} is missing or unreadable`;
    diagnostics.push(diagnostic("warning", file, problem, "did not read it"));
    if (definition.prompt === "")
      diagnostics.push(
        diagnostic("warning", file, "empty prompt", "the agent runs with only the harness preamble"),
      );
    return definition;
  }
  const prompt = [definition.prompt, text.trim()].filter((part) => part !== "").join("\n\n");
  return { ...definition, prompt };
}

function tooLarge(file: string, bytes: number): Diagnostic {
  return diagnostic(
    "error",
    file,
    `is ${Math.round(bytes / 1024)} KiB; agent files are read up to ${MAX_AGENT_FILE_BYTES / 1024} KiB`,
    "skipped the file",
  );
}

/**
 * Agent files of a folder in path order. In `.agentry/agents/` the runtime keeps state beside the
 * definitions (`<name>/workspace/`, `<name>/tasks/`); those folders are not definitions and are skipped,
 * as are hidden folders, `node_modules` and README files. Symlinks are followed once: a folder or file
 * reached again (a link back up the tree, two links to one place) is not read twice, and a loop is
 * reported.
 */
export async function listAgentFiles(
  folder: AgentFolder,
  exclude: ReadonlySet<string>,
): Promise<{ files: string[]; problems: Diagnostic[] }> {
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
        if (seenFiles.has(realFile) || exclude.has(realFile)) continue;
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

/** A path that exists and resolves (symlinks included) to somewhere outside `root`. */
async function isOutside(path: string, root: string): Promise<boolean> {
  const real = await realpath(path).catch(() => undefined);
  if (real === undefined) return false;
  const realRoot = await realpath(root).catch(() => root);
  return real !== realRoot && !real.startsWith(realRoot + sep);
}
