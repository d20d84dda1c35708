import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { InstructionList } from "../../src/instructions/instruction-lists.ts";
import { loadInstructions } from "../../src/instructions/load-instructions.ts";
import { tempDir } from "../support/temp-dir.ts";

/**
 * A temp machine: `home/`, a git repository `home/repo/` whose workspace is `home/repo/pkg/`, and a
 * folder outside both (`outside/`). Paths given to `write` are relative to the temp root.
 */
export interface Fixture {
  root: string;
  home: string;
  repo: string;
  workspace: string;
  outside: string;
  write(path: string, text: string): Promise<string>;
  link(path: string, target: string): Promise<void>;
  load(options?: {
    trusted?: boolean;
    lists?: InstructionList[];
    maxBytes?: number;
    env?: Record<string, string>;
  }): ReturnType<typeof loadInstructions>;
}

export async function fixture(): Promise<Fixture> {
  const root = await tempDir("agentry-instructions-");
  const home = join(root, "home");
  const repo = join(home, "repo");
  const workspace = join(repo, "pkg");
  const outside = join(root, "outside");
  for (const folder of [home, repo, workspace, outside]) await mkdir(folder, { recursive: true });
  execFileSync("git", ["init", "-q", repo]);
  const made: Fixture = {
    root,
    home,
    repo,
    workspace,
    outside,
    async write(path, text) {
      const absolute = join(root, path);
      await mkdir(dirname(absolute), { recursive: true });
      await writeFile(absolute, text);
      return absolute;
    },
    async link(path, target) {
      const absolute = join(root, path);
      await mkdir(dirname(absolute), { recursive: true });
      await symlink(target, absolute);
    },
    load: (options = {}) =>
      loadInstructions({
        workspace,
        home,
        env: options.env ?? {},
        trusted: options.trusted ?? false,
        ...(options.lists === undefined ? {} : { lists: options.lists }),
        ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
      }),
  };
  return made;
}

/** Where each marker first shows in `text` (-1: missing). */
export function positions(text: string, markers: readonly string[]): number[] {
  return markers.map((marker) => text.indexOf(marker));
}
