import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  agentsCheckCommand,
  agentsListCommand,
  agentsShowCommand,
} from "../../src/cli/commands/agents/agents.ts";
import type { CliIo } from "../../src/cli/io.ts";

/** `agentry agents list|show` say what each agent may do; issue 9 ("agents list prints builtin twice"). */

let root: string;
let project: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agentry-agents-cmd-"));
  project = join(root, "project");
  await mkdir(join(root, "home"), { recursive: true });
  await mkdir(project, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 3 });
});

async function write(path: string, text: string): Promise<void> {
  await mkdir(dirname(join(project, path)), { recursive: true });
  await writeFile(join(project, path), text);
}

async function run(command: (io: CliIo) => Promise<number>) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const io: CliIo = {
    stdin: new PassThrough(),
    stdout,
    stderr,
    env: { HOME: join(root, "home") },
    cwd: project,
  };
  const code = await command(io);
  return { code, stdout: out, stderr: err };
}

/** The second line of an agent's entry in `agents list`: its facts, separated by " · ". */
function factsOf(listing: string, name: string): string[] {
  const lines = listing.split("\n");
  const at = lines.findIndex((line) => line.startsWith(`${name} `));
  return (lines[at + 1] ?? "").trim().split(" · ");
}

const CODEX_AUDITOR =
  'description = "Audits"\ndeveloper_instructions = "Audit."\nsandbox_mode = "read-only"\n';
const OPENCODE_REVIEWER = "---\ndescription: Reviews\npermissions:\n  edit: deny\n---\nReview.\n";

describe("agentry agents list", () => {
  it("names a built-in's source once", async () => {
    const { stdout } = await run((io) => agentsListCommand({}, io));
    expect(factsOf(stdout, "general-purpose")).toEqual([
      "builtin",
      "subagent",
      "parent's model",
      "inherits tools",
      "sandbox: workspace-write",
    ]);
  });

  it("shows read-only agents as read-only, with the tools they get and the ones they never get", async () => {
    await write(".codex/agents/auditor.toml", CODEX_AUDITOR);
    await write(".opencode/agents/reviewer.md", OPENCODE_REVIEWER);
    const { stdout, code } = await run((io) => agentsListCommand({}, io));
    expect(code).toBe(0);
    expect(factsOf(stdout, "explore")).toEqual([
      "builtin",
      "subagent",
      "parent's model",
      "read-only",
      "tools: read, grep, glob, list, bash",
      "denied: write, edit, task",
      "sandbox: read-only",
    ]);
    expect(factsOf(stdout, "auditor")).toEqual([
      "project",
      "subagent",
      "parent's model",
      "read-only",
      "inherits tools",
      "denied: write, edit",
      "sandbox: read-only",
      ".codex/agents/auditor.toml",
    ]);
    expect(factsOf(stdout, "reviewer")).toContain("read-only");
  });

  it("gives the effective restrictions in --json", async () => {
    await write(".codex/agents/auditor.toml", CODEX_AUDITOR);
    await write(
      ".claude/agents/reader.md",
      "---\ndescription: Reads\ntools: Read, Grep, WebFetch\n---\nRead.\n",
    );
    const { stdout } = await run((io) => agentsListCommand({ json: true }, io));
    const agents = JSON.parse(stdout) as Array<Record<string, unknown>>;
    const byName = new Map(agents.map((a) => [a.name, a]));
    expect(byName.get("auditor")).toMatchObject({
      readOnly: true,
      tools: null,
      deniedTools: ["write", "edit"],
      sandbox: "read-only",
      allowedHosts: null,
    });
    expect(byName.get("reader")).toMatchObject({ readOnly: false, tools: ["read", "grep"], deniedTools: [] });
    expect(byName.get("general-purpose")).toMatchObject({ readOnly: false, tools: null, deniedTools: [] });
  });
});

describe("agentry agents show", () => {
  it("prints the effective restrictions, in text and in --json", async () => {
    await write(".codex/agents/auditor.toml", CODEX_AUDITOR);
    const text = await run((io) => agentsShowCommand("auditor", {}, io));
    expect(text.stdout).toContain(
      "edits: none (read-only: its rules deny every edit)\nsandbox: read-only (its commands see the files read-only)\nnetwork: the run's (sandbox.network.allowedHosts; none by default)\ntools it gets: the parent's\ntools it can never use: write, edit\n",
    );
    const json = await run((io) => agentsShowCommand("auditor", { json: true }, io));
    expect(JSON.parse(json.stdout).effective).toEqual({
      readOnly: true,
      edits: { kind: "none" },
      sandbox: "read-only",
      tools: "inherited",
      deniedTools: ["write", "edit"],
    });
  });
});

/**
 * Issue 29: an agent that may edit under one folder was listed as "read-only · sandbox: read-only"
 * though it wrote there. Each format's way of saying "edit docs/**, nothing else".
 */
const PARTIAL_WRITERS: Record<string, [path: string, text: string]> = {
  opencode: [
    ".opencode/agents/docs-writer.md",
    '---\ndescription: Writes docs\npermission:\n  edit:\n    "*": deny\n    "docs/**": allow\n---\nWrite docs.\n',
  ],
  claude: [
    ".claude/agents/docs-writer.md",
    "---\nname: docs-writer\ndescription: Writes docs\ntools: Read, Grep, Edit(docs/**), Write(docs/**)\n---\nWrite docs.\n",
  ],
  codex: [
    ".codex/agents/docs-writer.toml",
    'name = "docs-writer"\ndescription = "Writes docs"\ndeveloper_instructions = "Write docs."\nsandbox_mode = "workspace-write"\n\n[permission.edit]\n"*" = "deny"\n"docs/**" = "allow"\n',
  ],
};

/** An agent's entry in `agents list`: its line and the line of its facts. */
function entryOf(listing: string, name: string): string {
  const lines = listing.split("\n");
  const at = lines.findIndex((line) => line.startsWith(`${name} `));
  return lines.slice(at, at + 2).join("\n");
}

describe.each(Object.entries(PARTIAL_WRITERS))("a %s agent that may edit docs/** only", (_format, file) => {
  it("is never called read-only by agents list or show, which say where it may edit", async () => {
    await write(...file);
    const list = await run((io) => agentsListCommand({}, io));
    expect(list.code, list.stderr).toBe(0);
    expect(entryOf(list.stdout, "docs-writer")).not.toContain("read-only");
    expect(factsOf(list.stdout, "docs-writer")).toEqual(
      expect.arrayContaining(["edits only docs/**", "sandbox: commands write nothing"]),
    );
    const show = await run((io) => agentsShowCommand("docs-writer", {}, io));
    expect(show.stdout).not.toContain("read-only");
    expect(show.stdout).toContain("edits: only docs/** (its rules deny editing anything else)\n");
    const json = await run((io) => agentsShowCommand("docs-writer", { json: true }, io));
    expect(JSON.parse(json.stdout).effective).toMatchObject({
      readOnly: false,
      edits: { kind: "only", patterns: ["docs/**"] },
      sandbox: "read-only",
    });
  });
});

describe("agents that cannot edit at all", () => {
  it.each([
    ["codex", ".codex/agents/auditor.toml", CODEX_AUDITOR],
    ["opencode", ".opencode/agents/reviewer.md", OPENCODE_REVIEWER],
    ["claude", ".claude/agents/planner.md", "---\ndescription: Plans\npermissionMode: plan\n---\nPlan.\n"],
  ])("are still read-only in a %s file", async (_format, path, text) => {
    await write(path, text);
    const name = (/([\w-]+)\.\w+$/.exec(path) ?? [])[1] ?? "";
    const list = await run((io) => agentsListCommand({}, io));
    expect(factsOf(list.stdout, name)).toEqual(expect.arrayContaining(["read-only", "sandbox: read-only"]));
    const show = await run((io) => agentsShowCommand(name, {}, io));
    expect(show.stdout).toContain(
      "edits: none (read-only: its rules deny every edit)\nsandbox: read-only (its commands see the files read-only)\n",
    );
  });
});

describe("agentry agents check", () => {
  it("exits 1 for a file with a restriction it cannot read", async () => {
    await write(".claude/agents/odd.md", "---\ndescription: d\ndeniedCommands: [rm]\n---\nx\n");
    const { code, stdout } = await run((io) => agentsCheckCommand({}, io));
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /\.claude\/agents\/odd\.md:3: error: deniedCommands looks like it limits the agent/,
    );
  });
});
