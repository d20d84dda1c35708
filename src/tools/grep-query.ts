export type GrepOutputMode = "files_with_matches" | "content" | "count";

/** One search, already confined: `root`, `target` are real absolute paths inside the workspace. */
export interface GrepQuery {
  pattern: string;
  /** Real path of the workspace root; output paths are relative to it. */
  root: string;
  target: string;
  /** `target` relative to the root (`.` for the root itself). */
  targetRelative: string;
  targetIsFile: boolean;
  glob?: string;
  mode: GrepOutputMode;
  ignoreCase: boolean;
  context: number;
}

/**
 * Output lines in ripgrep's format, whichever engine ran: a path per file (`files_with_matches`),
 * `path:count` (`count`), or `path:line:text` for matches and `path-line-text` for context lines with
 * `--` between non-adjacent groups (`content`). Files in path order.
 */
export type GrepLines = string[];
