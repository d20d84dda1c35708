import { hasOption, optionValues, parseOptions } from "./command-options.ts";

/** What a search command's arguments say it reads. */
export interface SearchReads {
  /** Whether it walks the folders it is given (rg always; grep with `-r`, `-R` or `-d recurse`). */
  recursive: boolean;
  /** Its path operands: the operands but the pattern, unless the pattern came by `-e` or `-f`. */
  paths: string[];
  /** Files it reads for its own use: patterns (`-f`), names to leave out (`--exclude-from`…). */
  files: string[];
}

/** GNU grep's options (grep 3) that take a value, as the next word or attached. */
const GREP_VALUES = [
  ..."ABCDdefm",
  "after-context",
  "before-context",
  "context",
  "devices",
  "directories",
  "regexp",
  "file",
  "max-count",
  "label",
  "include",
  "exclude",
  "exclude-from",
  "exclude-dir",
  "binary-files",
  "group-separator",
];
/** Its long options that take none: known by name, so that a shortened one (`--recur`) is read as it. */
const GREP_FLAGS = [
  "recursive",
  "dereference-recursive",
  "extended-regexp",
  "fixed-strings",
  "basic-regexp",
  "perl-regexp",
  "ignore-case",
  "no-ignore-case",
  "word-regexp",
  "line-regexp",
  "null-data",
  "no-messages",
  "invert-match",
  "byte-offset",
  "line-number",
  "line-buffered",
  "with-filename",
  "no-filename",
  "only-matching",
  "quiet",
  "silent",
  "binary",
  "text",
  "files-without-match",
  "files-with-matches",
  "count",
  "initial-tab",
  "null",
  "no-group-separator",
  "help",
  "version",
];

/** ripgrep's options that take a value (ripgrep 14). */
const RG_VALUES = [
  ..."ABCEMTdefgjmrt",
  "after-context",
  "before-context",
  "context",
  "color",
  "colors",
  "context-separator",
  "dfa-size-limit",
  "encoding",
  "engine",
  "field-context-separator",
  "field-match-separator",
  "file",
  "glob",
  "iglob",
  "ignore-file",
  "max-columns",
  "max-count",
  "max-depth",
  "max-filesize",
  "path-separator",
  "pre",
  "pre-glob",
  "regex-size-limit",
  "regexp",
  "replace",
  "sort",
  "sortr",
  "threads",
  "type",
  "type-add",
  "type-clear",
  "type-not",
  "hostname-bin",
  "hyperlink-format",
  "generate",
];

const GREPS = new Set(["grep", "egrep", "fgrep"]);

/**
 * How grep (GNU, and egrep/fgrep) or rg reads its arguments, from their real option tables: which
 * operand is the pattern depends on it (`grep -m 1 TOKEN` searches TOKEN's files for nothing but
 * `grep -eroot /etc/shadow` reads /etc/shadow). Undefined for any other command.
 */
export function searchReads(base: string, args: readonly string[]): SearchReads | undefined {
  if (GREPS.has(base)) {
    // `--color[=WHEN]` takes its value attached only, as any option not listed is read already.
    const parsed = parseOptions(args, { value: GREP_VALUES, flags: GREP_FLAGS });
    const directories = optionValues(parsed, "d", "directories");
    return {
      recursive:
        hasOption(parsed, "r", "R", "recursive", "dereference-recursive") ||
        // grep takes any start of the word that names one action only: `-d rec`.
        directories.some((action) => action !== "" && "recurse".startsWith(action)),
      paths: hasOption(parsed, "e", "f", "regexp", "file") ? parsed.operands : parsed.operands.slice(1),
      files: optionValues(parsed, "f", "file", "exclude-from"),
    };
  }
  if (base === "rg") {
    const parsed = parseOptions(args, { value: RG_VALUES });
    const noPatternOperand = hasOption(parsed, "e", "f", "regexp", "file", "files", "type-list");
    return {
      recursive: true,
      paths: noPatternOperand ? parsed.operands : parsed.operands.slice(1),
      files: optionValues(parsed, "f", "file", "ignore-file"),
    };
  }
  return undefined;
}
