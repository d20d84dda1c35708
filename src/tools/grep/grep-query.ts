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

/** A file to search: its absolute path and its path relative to the workspace root (`/`-separated). */
export interface GrepFile {
  absolute: string;
  path: string;
}

/** One printed line of a file: a match, or context around one. */
export interface GrepLine {
  /** 1-based. */
  number: number;
  text: string;
  isMatch: boolean;
}

/**
 * What an engine found in one file: how many lines match and, in `content` mode, the lines to print
 * (matches and their context) in line order. Files without a match are left out.
 */
export interface FileMatches {
  path: string;
  matchCount: number;
  lines: GrepLine[];
}

/**
 * Output lines in ripgrep's format, whichever engine ran: a path per file (`files_with_matches`),
 * `path:count` (`count`), or `path:line:text` for matches and `path-line-text` for context lines with
 * `--` between non-adjacent groups (`content`). Files in path order.
 */
export type GrepLines = string[];
