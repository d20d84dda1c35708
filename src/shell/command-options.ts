/** How to read the options of one command (getopt style: `-abc`, `-ofile`, `-o file`, `--long=v`, `--long v`). */
export interface OptionSpec {
  /** Short letters and long names (no dashes) that take a value, attached or as the next word. */
  value?: readonly string[];
  /** Short letters and long names whose value may only be attached (`-i.bak`, `--in-place=.bak`). */
  attached?: readonly string[];
  /** Options known to take no value. When given, any other option is reported in `unknown`. */
  flags?: readonly string[];
  /** The first operand ends the options: what follows belongs to a wrapped command (`xargs rm -f`). */
  stopAtOperand?: boolean;
}

export interface ParsedOptions {
  /** Options in order; short ones by letter, long ones by name. */
  options: { name: string; value?: string }[];
  operands: string[];
  /** Options not in `flags` (only when `flags` is given), e.g. `-X` or `--frobnicate`. */
  unknown: string[];
}

/**
 * Splits a command's arguments into options and operands. Getting this right matters: a value
 * mistaken for an operand (or the reverse) would hide the command a wrapper like `xargs` really runs,
 * so callers treat `unknown` options as "cannot tell".
 */
export function parseOptions(args: readonly string[], spec: OptionSpec): ParsedOptions {
  const result: ParsedOptions = { options: [], operands: [], unknown: [] };
  const takesValue = new Set(spec.value ?? []);
  const attached = new Set(spec.attached ?? []);
  const flags = spec.flags === undefined ? undefined : new Set(spec.flags);
  const note = (name: string, shown: string) => {
    if (flags !== undefined && !flags.has(name)) result.unknown.push(shown);
  };
  const longName = longNameReader([...takesValue, ...attached, ...(flags ?? [])]);
  let index = 0;
  while (index < args.length) {
    const arg = args[index++] as string;
    if (arg === "--") {
      result.operands.push(...args.slice(index));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = longName(arg.slice(2, eq === -1 ? undefined : eq));
      if (eq !== -1) {
        if (!takesValue.has(name) && !attached.has(name)) note(name, arg);
        result.options.push({ name, value: arg.slice(eq + 1) });
      } else if (takesValue.has(name) && index < args.length)
        result.options.push({ name, value: args[index++] as string });
      else {
        if (!takesValue.has(name) && !attached.has(name)) note(name, arg);
        result.options.push({ name });
      }
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j] as string;
        const rest = arg.slice(j + 1);
        if (takesValue.has(letter)) {
          const value = rest !== "" ? rest : args[index++];
          result.options.push(value === undefined ? { name: letter } : { name: letter, value });
          break;
        }
        if (attached.has(letter)) {
          result.options.push({ name: letter, value: rest });
          break;
        }
        note(letter, `-${letter}`);
        result.options.push({ name: letter });
      }
      continue;
    }
    if (spec.stopAtOperand) {
      result.operands.push(arg, ...args.slice(index));
      break;
    }
    result.operands.push(arg);
  }
  return result;
}

/**
 * getopt_long takes any unambiguous start of a long option's name for the option (`timeout --sig KILL`
 * is `--signal KILL`): read as an unknown flag, its value would pass for the wrapped command. A name
 * known whole is itself; one that starts two known names is left as written (getopt refuses it).
 */
function longNameReader(known: readonly string[]): (name: string) => string {
  const longNames = [...new Set(known.filter((name) => name.length > 1))];
  return (name) => {
    // A name known whole starts itself alone, or more names than one: either way it stays itself.
    const candidates = name === "" ? [] : longNames.filter((full) => full.startsWith(name));
    return candidates.length === 1 ? (candidates[0] as string) : name;
  };
}

/**
 * Whether `arg` (`--name` or `--name=value`) names the long option `full` (dashes included) or a start
 * of it at least `shortest` characters long, as getopt_long and git's option parser take one.
 */
export function namesLongOption(arg: string, full: string, shortest = "--x".length): boolean {
  // A start of `full` at least three characters long begins with `--` as `full` does.
  const name = arg.split("=")[0] as string;
  return name.length >= shortest && full.startsWith(name);
}

export function hasOption(parsed: ParsedOptions, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}

export function optionValues(parsed: ParsedOptions, ...names: string[]): string[] {
  return parsed.options.flatMap((option) =>
    names.includes(option.name) && option.value !== undefined ? [option.value] : [],
  );
}
