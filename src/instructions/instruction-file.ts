/**
 * Whose a file is. A user's files (under the home folder) may import from the home folder; a project's
 * files come with the repository, which may be hostile, so what they reach is confined to it
 * (`read-policy.ts`).
 */
export type InstructionScope = "user" | "project";

/** Why a file is in the prompt. */
export type InstructionOrigin =
  /** A fixed place: `AGENTS.md` of a folder, `~/.claude/CLAUDE.md` … */
  | { kind: "location" }
  /** An `instructions` list named it: `source` is the list's file, as a label. */
  | { kind: "list"; source: string }
  /** `@path` in another file: `root` is the label of the file at the top of the chain. */
  | { kind: "import"; from: string; root: string; depth: number };

/** One file whose text is in the prompt. */
export interface InstructionFile {
  /** How the prompt and messages name it: `AGENTS.md`, `../AGENTS.md`, `~/.claude/CLAUDE.md`. */
  label: string;
  /** Its real path. */
  path: string;
  scope: InstructionScope;
  origin: InstructionOrigin;
  /** Bytes on disk. */
  size: number;
  /** What the prompt holds: the whole text, or its head when the size cap cut it. */
  text: string;
  /** The size cap cut it short. */
  truncated: boolean;
}

/** The instructions of a run, as `loadInstructions` found them. */
export interface LoadedInstructions {
  /** In the prompt's order: the user's, then the project's from its root down, imports after their file. */
  files: InstructionFile[];
  /** The system prompt's section (`""` when there is no file): after the built-in prompt, stable for the session. */
  section: string;
  /** What was refused or cut (an import outside the project, the size cap …): warnings for stderr. */
  diagnostics: string[];
  /** Where nested instruction files are looked for, and what the hook that adds them needs. */
  context: InstructionContext;
}

/** What reading more files later (nested ones, below the working folder) needs to know. */
export interface InstructionContext {
  /** The working folder's real path. */
  workspace: string;
  /** The repository's top folder (git), else the workspace: the project's files stay inside it. */
  projectRoot: string;
  /** The home folder. */
  home: string;
  /** Folders the user's own files may also come from (`$XDG_CONFIG_HOME`, `$CODEX_HOME`). */
  userRoots: readonly string[];
  /** The user trusts the folder: a project file may then import Markdown files from the home folder. */
  trusted: boolean;
  /** Real paths already in the prompt: a nested file is never added twice. */
  loaded: ReadonlySet<string>;
}
