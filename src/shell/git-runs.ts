import { optionValues, parseOptions } from "./command-options.ts";
import { gitGlobalOptions, INERT_CONFIG, isSetting } from "./git-subcommands.ts";

/** Settings whose value is a command git runs through the shell (`core.pager`, `diff.<driver>.textconv` …). */
const COMMAND_SETTING =
  /^(core\.(pager|editor|sshcommand|fsmonitor|askpass)|sequence\.editor|diff\.external|pager\..+|gpg\.(.+\.)?program|diff\..+\.(command|textconv)|merge\..+\.driver|filter\..+\.(clean|smudge|process))$/i;
/** Settings that run their value as a command when it starts with `!` (`alias.x=!cmd`). */
const BANG_SETTING = /^(alias\..+|credential\.(.+\.)?helper)$/i;

/** `git filter-branch`'s options whose value is shell source it runs. */
const FILTERS = ["env", "tree", "index", "parent", "msg", "commit", "tag-name"].map(
  (name) => `${name}-filter`,
);

/**
 * What a git command runs besides git: `rebase -x`, `difftool -x`, `submodule foreach` and
 * `filter-branch --*-filter` run shell source, `bisect run` a command, and so do settings given on
 * its command line whose value is a command (`-c core.pager=…`, `-c alias.x='!…'`). Any setting but
 * those known to run nothing (`user.*`, `color.*` …) is also a note: git reads many more programs from
 * settings (a `--config-env` value is not even on the command line).
 */
export function gitRuns(args: readonly string[]): {
  commands: string[][];
  scripts: string[];
  markers: string[];
} {
  const runs = { commands: [] as string[][], scripts: [] as string[], markers: [] as string[] };
  const { options, index } = gitGlobalOptions(args);
  for (const option of options) {
    const { name, value, key } = option;
    if (isSetting(option) && !INERT_CONFIG.test(key))
      runs.markers.push(`!git setting ${key} may run a program`);
    if (name === "-c") {
      const setting = (value ?? "").slice(key.length + 1);
      if (COMMAND_SETTING.test(key)) runs.scripts.push(setting);
      else if (BANG_SETTING.test(key) && setting.startsWith("!")) runs.scripts.push(setting.slice(1));
    }
    if (name === "--exec-path" && value !== undefined)
      runs.markers.push("!git --exec-path runs git's programs from elsewhere");
  }
  const [sub, ...rest] = args.slice(index);
  if (sub === "rebase") {
    const parsed = parseOptions(rest, {
      value: ["x", "exec", "s", "strategy", "X", "strategy-option", "onto"],
    });
    runs.scripts.push(...optionValues(parsed, "x", "exec"));
  } else if (sub === "difftool") {
    const parsed = parseOptions(rest, { value: ["x", "extcmd", "t", "tool"] });
    runs.scripts.push(...optionValues(parsed, "x", "extcmd"));
  } else if (sub === "filter-branch") {
    const parsed = parseOptions(rest, {
      value: [...FILTERS, "subdirectory-filter", "original", "d", "state-branch"],
    });
    runs.scripts.push(...optionValues(parsed, ...FILTERS));
  } else if (sub === "bisect" && rest[0] === "run") {
    runs.commands.push(rest.slice(1));
  } else if (sub === "submodule") {
    const at = rest.indexOf("foreach");
    const command =
      at === -1 ? [] : rest.slice(at + 1).filter((word, i) => !(i === 0 && word === "--recursive"));
    if (command.length > 0) runs.scripts.push(command.join(" "));
  }
  return runs;
}
