import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { beforeEach } from "vitest";
import { loadAgentDefinitions } from "../../src/agents/discover.ts";
import { tempDir } from "../support/temp-dir.ts";
import { summarize } from "./fixtures.ts";

/** A project folder and a home folder of each test's own, and discovery over them. */
export interface AgentFolders {
  readonly project: string;
  readonly home: string;
  /** Writes a file, making its folders. */
  write(path: string, text: string): Promise<void>;
  /** Discovers the agents of both folders: the definitions by name, and the diagnostics as lines. */
  load(options?: { includeBuiltins?: boolean }): ReturnType<typeof discover>;
}

async function discover(project: string, home: string, includeBuiltins: boolean | undefined) {
  const loaded = await loadAgentDefinitions({
    projectDir: project,
    homeDir: home,
    ...(includeBuiltins === undefined ? {} : { includeBuiltins }),
  });
  const byName = new Map(loaded.definitions.map((d) => [d.name, d]));
  return { ...loaded, byName, summary: summarize(loaded.diagnostics) };
}

/** Registers a `beforeEach` that makes fresh folders (removed after each test) under `prefix`. */
export function agentFolders(prefix: string): AgentFolders {
  let project = "";
  let home = "";
  beforeEach(async () => {
    const root = await tempDir(prefix);
    project = join(root, "project");
    home = join(root, "home");
    await mkdir(project, { recursive: true });
    await mkdir(home, { recursive: true });
  });
  return {
    get project() {
      return project;
    },
    get home() {
      return home;
    },
    async write(path, text) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
    },
    load: (options = {}) => discover(project, home, options.includeBuiltins),
  };
}
