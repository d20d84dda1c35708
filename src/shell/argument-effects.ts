import { hasOption, optionValues, parseOptions } from "./command-options.ts";
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
      else if (/^-[A-Za-z]*O/.test(arg) || arg.startsWith("--open-files-in-pager")) {
        effects.push("!git -O may run a pager command");
      } else if (arg === "--ext-diff" || arg.startsWith("--exec-path") || arg.startsWith("--upload-pack")) {
        effects.push(`!git ${arg} runs an external program`);
      }
    });
    return effects;
  },
  tree: (args) => {
    const parsed = parseOptions(args, {
      value: [..."LPIHTo", "filelimit", "timefmt", "charset", "output", "fromfile", "infofile"],
    });
    const effects = optionValues(parsed, "o", "output").map((file) => `> ${file}`);
    if (hasOption(parsed, "R")) effects.push("!tree -R writes files");
    return effects;
  },
  file: (args) =>
    hasOption(parseOptions(args, { value: [..."mfFeP"] }), "C", "compile")
      ? ["!file -C writes a magic file"]
      : [],
};
