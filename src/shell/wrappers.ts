import { hasOption, optionValues, parseOptions } from "./command-options.ts";
import { gitRuns } from "./git-runs.ts";

/** What a command runs besides itself. */
export interface NestedRuns {
  /** Commands it runs as argument words: `sudo rm -rf x` runs `rm -rf x`, `find -exec cat {} ;` runs `cat {}`. */
  commands: string[][];
  /** Shell source it runs: `sh -c "…"`, `eval …`, `env -S "…"`, `watch "…"`. */
  scripts: string[];
  /** Notes for what cannot be told apart safely, e.g. an xargs option this module does not know. */
  markers: string[];
}

const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

type Unwrap = (args: string[]) => Partial<NestedRuns>;

const shell: Unwrap = (args) => {
  // `bash -lc 'script' arg0 …`: the script is the first operand once a `c` flag appears.
  const parsed = parseOptions(args, { value: ["o", "O", "init-file", "rcfile"], stopAtOperand: true });
  const script = parsed.operands[0];
  return hasOption(parsed, "c") && script !== undefined ? { scripts: [script] } : {};
};

const afterOptions =
  (value: string[], flags?: string[]): Unwrap =>
  (args) => {
    const parsed = parseOptions(
      args,
      flags === undefined ? { value, stopAtOperand: true } : { value, flags, stopAtOperand: true },
    );
    const markers = parsed.unknown.map((option) => `!${option} of a command wrapper is not understood`);
    return { commands: [parsed.operands], markers };
  };

const WRAPPERS: Record<string, Unwrap> = {
  sh: shell,
  bash: shell,
  zsh: shell,
  dash: shell,
  ksh: shell,
  eval: (args) => ({ scripts: [args.join(" ")] }),
  sudo: afterOptions([
    "u",
    "g",
    "h",
    "p",
    "C",
    "D",
    "r",
    "t",
    "T",
    "U",
    "user",
    "group",
    "host",
    "prompt",
    "chdir",
  ]),
  doas: afterOptions(["u", "C"]),
  nohup: afterOptions([]),
  setsid: afterOptions([]),
  exec: afterOptions(["a"]),
  nice: afterOptions(["n", "adjustment"], ["n", "adjustment", ..."0123456789"]),
  ionice: afterOptions(["c", "n", "p", "P", "u", "class", "classdata"]),
  stdbuf: afterOptions(["i", "o", "e", "input", "output", "error"]),
  time: (args) => {
    const parsed = parseOptions(args, { value: ["f", "o", "format", "output"], stopAtOperand: true });
    const writes = optionValues(parsed, "o", "output").map((file) => `> ${file}`);
    return { commands: [parsed.operands], markers: writes };
  },
  // `builtin name args` runs the shell builtin `name`: `builtin eval '…'` is an eval.
  builtin: afterOptions([]),
  trap: (args) => {
    // `trap 'script' SIGNAL…` runs the script later, when the signal (or EXIT) comes. `trap - SIG`
    // resets, `trap '' SIG` ignores, `trap SIG` (one operand) resets; `-p`/`-l` only print.
    const parsed = parseOptions(args, { flags: ["p", "l", "P"], stopAtOperand: true });
    const [action, ...signals] = parsed.operands;
    const markers = parsed.unknown.map((option) => `!trap option ${option} is not understood`);
    if (action === undefined || signals.length === 0 || action === "-" || action === "") return { markers };
    return { scripts: [action], markers };
  },
  command: (args) => {
    const parsed = parseOptions(args, { stopAtOperand: true });
    // `command -v name` only looks the name up.
    return hasOption(parsed, "v", "V") ? {} : { commands: [parsed.operands] };
  },
  env: (args) => {
    const parsed = parseOptions(args, {
      value: ["u", "C", "S", "unset", "chdir", "split-string"],
      stopAtOperand: true,
    });
    const first = parsed.operands.findIndex((word) => !ENV_ASSIGNMENT.test(word));
    const command = first === -1 ? [] : parsed.operands.slice(first);
    const split = optionValues(parsed, "S", "split-string");
    return {
      commands: split.length === 0 ? [command] : [],
      scripts: split.map((script) => [script, ...command].join(" ")),
    };
  },
  timeout: (args) => {
    const parsed = parseOptions(args, { value: ["s", "k", "signal", "kill-after"], stopAtOperand: true });
    return { commands: [parsed.operands.slice(1)] };
  },
  watch: (args) => {
    // `-d`/`--differences` take an optional value, so only an attached one (`-dn rm` runs rm, n is
    // the value), which is how a long option that takes no value reads already.
    const parsed = parseOptions(args, {
      value: ["n", "interval", "q", "equexit"],
      attached: ["d"],
      stopAtOperand: true,
    });
    if (parsed.operands.length === 0) return {};
    return hasOption(parsed, "x", "exec")
      ? { commands: [parsed.operands] }
      : { scripts: [parsed.operands.join(" ")] };
  },
  xargs: (args) => {
    // `-l`, `-e`, `-i` and their long names take an optional value, so only an attached one:
    // `xargs --max-lines rm` runs rm.
    const parsed = parseOptions(args, {
      value: [
        "a",
        "d",
        "E",
        "I",
        "L",
        "n",
        "P",
        "s",
        "arg-file",
        "delimiter",
        "max-args",
        "max-procs",
        "max-chars",
        "process-slot-var",
      ],
      attached: ["e", "i", "l", "eof", "replace", "max-lines"],
      flags: [
        "0",
        "o",
        "p",
        "r",
        "t",
        "x",
        "null",
        "open-tty",
        "interactive",
        "no-run-if-empty",
        "verbose",
        "exit",
        "show-limits",
      ],
      stopAtOperand: true,
    });
    const markers = parsed.unknown.map((option) => `!xargs option ${option} is not understood`);
    return { commands: [parsed.operands.length > 0 ? parsed.operands : ["echo"]], markers };
  },
  find: (args) => {
    const commands: string[][] = [];
    for (let i = 0; i < args.length; i++) {
      if (!["-exec", "-execdir", "-ok", "-okdir"].includes(args[i] as string)) continue;
      // GNU find ends the command at `;`, or at `+` right after `{}`: `-exec env -u + rm x ;` runs rm.
      const end = args.findIndex(
        (word, j) => j > i && (word === ";" || (word === "+" && args[j - 1] === "{}")),
      );
      commands.push(args.slice(i + 1, end === -1 ? undefined : end));
      if (end === -1) break;
      i = end;
    }
    return { commands };
  },
  git: gitRuns,
  rg: (args) => {
    // `rg --pre cmd` runs cmd on every file it searches.
    const parsed = parseOptions(args, {
      value: ["pre", "e", "f", "g", "t", "T", "m", "A", "B", "C", "M", "j", "r", "E"],
    });
    return { commands: optionValues(parsed, "pre").map((command) => [command]) };
  },
  sort: (args) => {
    const parsed = parseOptions(args, { value: ["compress-program"] });
    return { commands: optionValues(parsed, "compress-program").map((command) => [command]) };
  },
};

/** The commands and scripts that `words` runs on top of its own command. */
export function nestedRuns(words: readonly string[]): NestedRuns {
  const [name, ...args] = words;
  const runs: NestedRuns = { commands: [], scripts: [], markers: [] };
  if (name === undefined) return runs;
  const base = name.slice(name.lastIndexOf("/") + 1);
  // `/bin/rm -rf x` is also checked as `rm -rf x`, so rules about `rm` still apply.
  if (base !== name && base !== "") runs.commands.push([base, ...args]);
  const unwrap = WRAPPERS[base];
  if (unwrap === undefined || !Object.hasOwn(WRAPPERS, base)) return runs;
  const found = unwrap(args);
  // `sudo`, `timeout 5` or `find -exec ;` with nothing after it give an empty command: it runs nothing.
  runs.commands.push(...(found.commands ?? []).filter((command) => command.length > 0));
  runs.scripts.push(...(found.scripts ?? []));
  runs.markers.push(...(found.markers ?? []));
  return runs;
}
