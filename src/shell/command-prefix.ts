/**
 * The prefix an "always" answer approves for a command (`npm test -- --x` → `npm test`), as Claude
 * Code's `Bash(npm test:*)` and OpenCode's "always" do: the command's name and as many subcommand
 * words as it takes (`git commit`, `npm run build`, `docker compose up`). The pattern it gets is safe
 * as a prefix because `bashPermissionPatterns` lists what a command writes or runs besides itself as
 * separate patterns (redirections, substitutions, `xargs` targets …), which a prefix never matches.
 *
 * Undefined — approve the exact command only — for commands that destroy what they name (`rm`,
 * `dd`, `kill` …: one approved deletion is not every deletion), when a prefix would approve arbitrary code (an
 * interpreter or a wrapper, even behind a runner: `python x.py` → `python *`, `uv run python`, would
 * run anything), when the pattern is not a
 * plain command (`> file`, a `!…` note, an assignment), when a word has wildcard characters, or when
 * an option stands where a subcommand should (`git -C dir push`: `git *` would be too wide).
 */
export function commandPrefix(command: string): string | undefined {
  const words = command.split(" ");
  const [name] = words;
  if (name === undefined || !/^[\w./@+-][\w./@+:,-]*$/.test(name)) return undefined;
  const arity = arityOf(words);
  if (words.length < arity) return undefined;
  const prefix = words.slice(0, arity);
  if (DESTROYS.has(name.slice(name.lastIndexOf("/") + 1))) return undefined;
  const unsafe = (word: string, index: number) =>
    RUNS_ANY_CODE.has(word.slice(word.lastIndexOf("/") + 1)) ||
    (index > 0 && (word.startsWith("-") || /[*?]/.test(word)));
  return prefix.some(unsafe) ? undefined : prefix.join(" ");
}

/** Words a command's prefix takes: the longest entry of `ARITY` the command starts with, else 1. */
function arityOf(words: readonly string[]): number {
  for (let length = Math.min(words.length, 2); length > 0; length--) {
    const arity = ARITY.get(words.slice(0, length).join(" "));
    if (arity !== undefined) return arity;
  }
  return 1;
}

/** Commands whose subcommand is part of what the user approves. */
const ARITY = new Map<string, number>([
  ...[
    "git",
    "npm",
    "pnpm",
    "yarn",
    "bun",
    "npx",
    "pnpx",
    "bunx",
    "cargo",
    "go",
    "make",
    "just",
    "docker",
    "podman",
    "kubectl",
    "helm",
    "gh",
    "glab",
    "pip",
    "pip3",
    "uv",
    "poetry",
    "pdm",
    "dotnet",
    "mvn",
    "gradle",
    "./gradlew",
    "composer",
    "bundle",
    "rake",
    "mix",
    "swift",
    "brew",
    "apt",
    "apt-get",
    "systemctl",
    "terraform",
    "aws",
    "gcloud",
    "az",
  ].map((name) => [name, 2] as const),
  ...[
    "npm run",
    "npm exec",
    "pnpm run",
    "pnpm exec",
    "yarn run",
    "bun run",
    "docker compose",
    "gh pr",
    "gh issue",
    "gh run",
    "git stash",
    "git remote",
    "git submodule",
    "git worktree",
    "uv run",
    "poetry run",
    "go mod",
  ].map((name) => [name, 3] as const),
]);

/** Names whose arguments are code or another command: a prefix rule on them would approve anything. */
const RUNS_ANY_CODE = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "python",
  "python2",
  "python3",
  "node",
  "deno",
  "tsx",
  "ts-node",
  "ruby",
  "perl",
  "php",
  "lua",
  "Rscript",
  "osascript",
  "pwsh",
  "eval",
  "exec",
  "source",
  ".",
  "sudo",
  "doas",
  "su",
  "env",
  "xargs",
  "nohup",
  "timeout",
  "nice",
  "time",
  "watch",
  "ssh",
  "command",
  "builtin",
]);

/** Commands whose every use destroys something different: approved one command line at a time. */
const DESTROYS = new Set([
  "rm",
  "rmdir",
  "unlink",
  "shred",
  "dd",
  "mkfs",
  "truncate",
  "kill",
  "pkill",
  "killall",
  "chmod",
  "chown",
  "chgrp",
  "reboot",
  "shutdown",
]);
