import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadAgentDefinitions } from "../../src/agents/discover.ts";
import { loadAgentFile } from "../../src/agents/loaders/load-agent-file.ts";

/** Issue 9, robustness: symlink loops, huge files and huge lists never break discovery. */

let root: string;
let project: string;
let home: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agentry-discover-robust-"));
  project = join(root, "project");
  home = join(root, "home");
  await mkdir(join(project, ".claude/agents"), { recursive: true });
  await mkdir(home, { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 3 });
});

const agents = (): string => join(project, ".claude/agents");
const agent = (name: string): string => `---\nname: ${name}\ndescription: ${name} agent\n---\nPrompt.\n`;
const load = () => loadAgentDefinitions({ projectDir: project, homeDir: home, includeBuiltins: false });

describe("agent folders with symlinks", () => {
  it("follows a symlink loop once and says so", async () => {
    await writeFile(join(agents(), "a.md"), agent("a"));
    await mkdir(join(agents(), "team"));
    await writeFile(join(agents(), "team/b.md"), agent("b"));
    await symlink("..", join(agents(), "team/up"));
    const { definitions, diagnostics } = await load();
    expect(definitions.map((d) => d.name).sort()).toEqual(["a", "b"]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "warning",
        file: join(agents(), "team/up"),
        message: `leads back to ${agents()} (a symlink loop or a second link)`,
      }),
    ]);
  });

  it("reads a file reached through two links once", async () => {
    await mkdir(join(project, "shared"));
    await writeFile(join(project, "shared/c.md"), agent("c"));
    await symlink(join(project, "shared/c.md"), join(agents(), "c.md"));
    await symlink(join(project, "shared/c.md"), join(agents(), "c-again.md"));
    const { definitions, diagnostics } = await load();
    expect(definitions.map((d) => d.name)).toEqual(["c"]);
    expect(diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
  });

  it("does not open a .md that is a FIFO", async () => {
    execFileSync("mkfifo", [join(agents(), "pipe.md")]);
    await writeFile(join(agents(), "a.md"), agent("a"));
    const { definitions, diagnostics } = await load();
    expect(definitions.map((d) => d.name)).toEqual(["a"]);
    expect(diagnostics).toEqual([
      expect.objectContaining({ severity: "error", message: "not a regular file" }),
    ]);
  });
});

describe("huge agent files", () => {
  it("refuses a huge tools list with an error and loads the other agents", async () => {
    const names = (count: number) => Array.from({ length: count }, (_, i) => `Tool${i}`);
    // 200,000 names overflowed the call stack and broke every run of the workspace.
    await writeFile(
      join(agents(), "huge.md"),
      `---\ndescription: d\ntools: ${names(200_000).join(", ")}\n---\nx\n`,
    );
    await writeFile(
      join(agents(), "list.md"),
      `---\ndescription: d\ntools: ${names(1000).join(", ")}\n---\nx\n`,
    );
    const block = names(1000)
      .map((n) => `  - ${n}`)
      .join("\n");
    // Invalid YAML (the unquoted ": "), so the lenient reader has to take the long block.
    await writeFile(join(agents(), "block.md"), `---\ndescription: d: x\ntools:\n${block}\n---\nx\n`);
    await writeFile(join(agents(), "a.md"), agent("a"));
    const { definitions, diagnostics } = await load();
    expect(definitions.map((d) => d.name)).toEqual(["a"]);
    const errors = diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => [d.file.slice(agents().length + 1), d.message])).toEqual([
      ["block.md", "tools lists more than 256 tools; agentry reads at most 256"],
      ["huge.md", "is 2235 KiB; agent files are read up to 1024 KiB"],
      ["list.md", "tools lists more than 256 tools; agentry reads at most 256"],
    ]);
    expect(diagnostics.length).toBeLessThan(10);
  });

  it("refuses a file over 1 MiB without parsing it", async () => {
    await writeFile(join(agents(), "big.md"), `---\ndescription: d\n---\n${"x".repeat(2 * 1024 * 1024)}`);
    await writeFile(join(agents(), "a.md"), agent("a"));
    const { definitions, diagnostics } = await load();
    expect(definitions.map((d) => d.name)).toEqual(["a"]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        message: "is 2048 KiB; agent files are read up to 1024 KiB",
      }),
    ]);
  });

  it.each([
    ["deeply nested YAML", `tools: ${"[".repeat(50_000)}${"]".repeat(50_000)}`],
    ["deeply nested invalid YAML", `description: a: b\ntools: ${"[".repeat(50_000)}`],
    ["a huge front matter", `notes: ${"y".repeat(100_000)}`],
    ["thousands of keys", Array.from({ length: 5000 }, (_, i) => `key${i}: v`).join("\n")],
    ["an alias without its anchor", "tools: *missing"],
  ])("survives %s", (_, frontMatter) => {
    const text = `---\ndescription: d\n${frontMatter}\n---\nx\n`;
    for (const format of ["claude", "opencode", "agentry"] as const) {
      const { definition, diagnostics } = loadAgentFile(text, "/p/x.md", { format });
      expect(diagnostics.some((d) => d.message.startsWith("internal error"))).toBe(false);
      if (definition !== undefined) expect(definition.tools ?? []).toEqual([]);
      expect(diagnostics.length).toBeLessThan(10);
    }
  });

  it("survives a Codex role with thousands of keys or deep nesting", () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `key${i} = 1`).join("\n");
    const nested = `x = ${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    for (const text of [keys, nested]) {
      const { definition, diagnostics } = loadAgentFile(`description = "d"\n${text}\n`, "/p/x.toml", {
        format: "codex",
      });
      expect(definition).toBeUndefined();
      expect(diagnostics.some((d) => d.message.startsWith("internal error"))).toBe(false);
      expect(diagnostics.length).toBeLessThan(10);
    }
  });
});
