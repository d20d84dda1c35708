import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { cliBin } from "../../support/cli-bin.ts";
import { tempDir } from "../../support/temp-dir.ts";

/** A temp project directory plus a temp HOME, so no real user config or keys leak into a test. */
export interface TestWorkspace {
  dir: string;
  home: string;
  /** The env every CLI run gets: PATH, the temp HOME, no colour, no provider keys. */
  env: Record<string, string>;
  write(path: string, text: string): Promise<void>;
  read(path: string): Promise<string>;
  /**
   * Merges `settings` into the user's config (`$HOME/.config/agentry/config.json`): what only the
   * user may set (providers, the fleet, allows of unsandboxed commands).
   */
  userConfig(settings: Record<string, unknown>): Promise<void>;
  /** Trusts the project folder through the user's config (`trustedFolders`), as a user would. */
  trust(): Promise<void>;
  /** Writes a file under the temp HOME (`.claude/settings.json`, `.codex/config.toml` …). */
  userFile(path: string, text: string): Promise<void>;
  /** Parsed lines of every transcript in `.agentry/sessions/`, keyed by file name. */
  transcripts(): Promise<Record<string, { lines: string[]; parsed: unknown[] }>>;
  /**
   * @deprecated Not needed: the folders go when the test finishes (`tempDir`). Kept so tests written
   * before that still compile; it removes them at once.
   */
  cleanup(): Promise<void>;
}

/** Removed when the test finishes, or with the file when made in `beforeAll` (see `tempDir`). */
export async function makeWorkspace(files: Record<string, string> = {}): Promise<TestWorkspace> {
  const root = await tempDir("agentry-cli-");
  const dir = join(root, "project");
  const home = join(root, "home");
  await mkdir(dir);
  await mkdir(home);
  const workspace: TestWorkspace = {
    dir,
    home,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, NO_COLOR: "1" },
    async write(path, text) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    },
    read: (path) => readFile(join(dir, path), "utf8"),
    async userConfig(settings) {
      const path = join(home, ".config", "agentry", "config.json");
      const current = await readFile(path, "utf8").then(
        (text) => JSON.parse(text) as Record<string, unknown>,
        () => ({}),
      );
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, JSON.stringify({ ...current, ...settings }));
    },
    async trust() {
      await workspace.userConfig({ trustedFolders: [dir] });
    },
    async userFile(path, text) {
      await mkdir(dirname(join(home, path)), { recursive: true });
      await writeFile(join(home, path), text);
    },
    async transcripts() {
      const sessions = join(dir, ".agentry", "sessions");
      const names = await readdir(sessions).catch(() => [] as string[]);
      const out: Record<string, { lines: string[]; parsed: unknown[] }> = {};
      for (const name of names.filter((n) => n.endsWith(".jsonl"))) {
        const text = await readFile(join(sessions, name), "utf8");
        const lines = text.split("\n");
        if (lines.at(-1) === "") lines.pop();
        out[name] = { lines, parsed: lines.map((line) => JSON.parse(line)) };
      }
      return out;
    },
    cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 3 }),
  };
  for (const [path, text] of Object.entries(files)) await workspace.write(path, text);
  return workspace;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface CliOptions {
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin, which is then closed; stdin is closed at once otherwise. */
  input?: string;
}

/** Starts `node bin/agentry.js …` (the real CLI) as a child process. */
export function spawnCli(args: string[], options: CliOptions): ChildProcess {
  const child = spawn(process.execPath, [cliBin(), ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin?.end(options.input ?? "");
  return child;
}

/** Collects a child's output until it exits. */
export function finished(child: ChildProcess, startedAt = performance.now()): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) =>
      resolve({ code, signal, stdout, stderr, durationMs: performance.now() - startedAt }),
    );
  });
}

export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  const startedAt = performance.now();
  return finished(spawnCli(args, options), startedAt);
}
