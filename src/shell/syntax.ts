/** What the shell scanner reports: the simple commands of a command line, with their words and redirections. */

export interface ShellWord {
  /** The word after quote removal and escape processing; substitutions stay as their source text. */
  text: string;
  /** True when any part was quoted or escaped (a quoted word is never a keyword or an fd number). */
  quoted: boolean;
}

export interface ShellRedirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `>&`, `<`, `<&`, `<<`, `<<-` or `<<<`. */
  op: string;
  /** The explicit file descriptor, e.g. `2` in `2>err.log`. */
  fd?: string;
  target: ShellWord;
}

export interface SimpleCommand {
  /** Leading `NAME=value` words. */
  assignments: ShellWord[];
  words: ShellWord[];
  redirects: ShellRedirect[];
}

export interface ParsedShell {
  /** Every simple command, nested ones included, in source order (an outer command before its inner ones). */
  commands: SimpleCommand[];
  /** Syntax the scanner could not follow, e.g. "unterminated ' quote". */
  problems: string[];
}

/** Characters that end an unquoted word. */
export const WORD_END = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
/** How deep substitutions and subshells may nest before the scanner gives up (and says so). */
export const MAX_NESTING = 32;
