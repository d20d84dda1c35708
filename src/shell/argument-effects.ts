import { hasOption, namesLongOption, optionValues, parseOptions } from "./command-options.ts";
import { sedEffects } from "./sed-script.ts";

/**
 * Writes and command execution that hide in the arguments of commands a read-only allowlist admits
 * (`sed -i`, `find -delete`, `sort -o`, `uniq in out` …), as extra patterns: `> file` for a file
 * written, `!…` for anything else no prefix rule should wave through.
 */
export function argumentEffects(words: readonly string[]): string[] {
  const [name, ...args] = words;
  if (name === undefined) return [];
  const base = name.slice(name.lastIndexOf("/") + 1);
  const effects = Object.hasOwn(EFFECTS, base) ? EFFECTS[base] : undefined;
  return effects === undefined ? [] : effects(args);
}

const awk = (args: string[]): string[] => {
  const parsed = parseOptions(args, {
    value: [..."FvfeEil", "field-separator", "assign", "file", "source", "exec", "include", "load"],
    // gawk's -d, -p and -o write files; -W and anything else unknown is refused.
    flags: [
      ..."bcMnNOPrstSV",
      "posix",
      "traditional",
      "sandbox",
      "characters-as-bytes",
      "re-interval",
      "version",
    ],
  });
  const effects = parsed.unknown.map((option) => `!awk option ${option} is not understood`);
  if (hasOption(parsed, "f", "file", "E", "exec")) effects.push("!awk program file is not inspected");
  if (hasOption(parsed, "i", "include", "l", "load")) effects.push("!awk loads a library or extension");
  const sources = optionValues(parsed, "e", "source");
  const programs =
    sources.length > 0 || hasOption(parsed, "f", "file", "E", "exec") ? sources : parsed.operands.slice(0, 1);
  // `system(…)`, `print > "f"`, `print | "cmd"`, `"cmd" | getline` and `@load` all reach outside;
  // `>=` is only a comparison. A bare `>` comparison is refused too: telling it from output needs a parser.
  if (programs.some((program) => /system\s*\(|\||>(?!=)|@/.test(program))) {
    effects.push("!awk program may run commands or write files");
  }
  return effects;
};

/** tree's options that take a value (tree 2.1); `--output` is not one of them, and is taken for a write all the same. */
const TREE_LETTER_VALUES = new Set([..."LPIHTo"]);
const TREE_LONG_VALUES = new Set([
  "filelimit",
  "timefmt",
  "charset",
  "sort",
  "gitfile",
  "hintro",
  "houtro",
  "infofile",
  "output",
]);

/**
 * tree reads its options its own way, not getopt's: each letter of a cluster that takes a value takes
 * the next word (`tree -Lo 1 out` writes `out`, `tree -oa out` too), and `--fromfile` takes none.
 */
function treeEffects(args: readonly string[]): string[] {
  const effects: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") break;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = arg.slice(2, eq === -1 ? undefined : eq);
      const value = eq === -1 ? args[i + 1] : arg.slice(eq + 1);
      if (name === "output") effects.push(`> ${value ?? ""}`);
      if (eq === -1 && TREE_LONG_VALUES.has(name)) i++;
    } else if (arg.startsWith("-")) {
      let next = i + 1;
      for (const letter of arg.slice(1)) {
        if (letter === "o") effects.push(`> ${args[next] ?? ""}`);
        if (letter === "R") effects.push("!tree -R writes files");
        if (TREE_LETTER_VALUES.has(letter)) next++;
      }
      i = next - 1;
    }
  }
  return effects;
}

/**
 * `git grep --open-files-in-pager[=cmd]`, as git's option parser takes it: any start of the name down
 * to `--op` (`--o` is ambiguous), so `git grep --open=cmd x` runs `cmd`.
 */
function opensPager(arg: string): boolean {
  return namesLongOption(arg, "--open-files-in-pager", "--op".length);
}

const EFFECTS: Record<string, (args: string[]) => string[]> = {
  sed: sedEffects,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  find: (args) => {
    const effects: string[] = [];
    args.forEach((arg, i) => {
      if (arg === "-delete") effects.push("!find -delete removes files");
      if (["-fprint", "-fprint0", "-fprintf", "-fls"].includes(arg)) effects.push(`> ${args[i + 1] ?? ""}`);
    });
    return effects;
  },
  sort: (args) => {
    const parsed = parseOptions(args, {
      value: [
        ..."kotST",
        "key",
        "output",
        "field-separator",
        "buffer-size",
        "temporary-directory",
        "parallel",
        "files0-from",
        "batch-size",
        "random-source",
        "compress-program",
      ],
    });
    // The program of --compress-program is a command it runs (wrappers.ts).
    return optionValues(parsed, "o", "output").map((file) => `> ${file}`);
  },
  uniq: (args) => {
    // `uniq input output` writes its second operand.
    const parsed = parseOptions(args, { value: [..."fsw", "skip-fields", "skip-chars", "check-chars"] });
    const output = parsed.operands[1];
    return output === undefined || output === "-" ? [] : [`> ${output}`];
  },
  tee: (args) => parseOptions(args, {}).operands.map((file) => `> ${file}`),
  git: (args) => {
    // Scanned word by word: git's per-subcommand options are too many to split safely.
    const effects: string[] = [];
    args.forEach((arg, i) => {
      if (arg === "--output") effects.push(`> ${args[i + 1] ?? ""}`);
      else if (arg.startsWith("--output=")) effects.push(`> ${arg.slice("--output=".length)}`);
      else if (/^-[A-Za-z0-9]*O/.test(arg) || opensPager(arg)) {
        effects.push("!git -O may run a pager command");
      } else if (arg === "--ext-diff" || arg.startsWith("--exec-path") || arg.startsWith("--upload-pack")) {
        effects.push(`!git ${arg} runs an external program`);
      }
    });
    return effects;
  },
  tree: (args) => treeEffects(args),
  file: (args) =>
    hasOption(parseOptions(args, { value: [..."mfFeP"] }), "C", "compile")
      ? ["!file -C writes a magic file"]
      : [],
};
