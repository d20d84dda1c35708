import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import type { Command } from "commander";
import { beforeAll, describe, expect, it } from "vitest";
import { createProgram } from "../../../src/cli/program.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";

const { version } = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

let ws: TestWorkspace;
beforeAll(async () => {
  ws = await makeWorkspace();
});

const cli = (...args: string[]) => runCli(args, { cwd: ws.dir, env: ws.env });

describe("agentry --version and --help", () => {
  it("prints the package version", async () => {
    for (const flag of ["--version", "-v"]) {
      const result = await cli(flag);
      expect(result.code).toBe(0);
      expect(result.stdout.trim()).toBe(version);
    }
  });

  it("does not load the model providers for --version and --help", () => {
    const mainUrl = new URL("../../../src/cli/main.ts", import.meta.url).href;
    const script = `
      import { registerHooks } from "node:module";
      const loaded = [];
      registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); loaded.push(r.url); return r; } });
      const { main } = await import(${JSON.stringify(mainUrl)});
      const quiet = { write() { return true; } };
      const io = { stdin: process.stdin, stdout: quiet, stderr: quiet, env: {}, cwd: process.cwd() };
      await main(["--version"], io);
      await main(["run", "--help"], io);
      process.stdout.write(JSON.stringify(loaded));
    `;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    const loaded = JSON.parse(output) as string[];
    expect(loaded.some((url) => url.endsWith("/src/cli/program.ts"))).toBe(true);
    expect(loaded.filter((url) => /@ai-sdk|\/src\/model\/registry\.ts|\/src\/agent\//.test(url))).toEqual([]);
  });

  it("lists the commands and the configuration in the top-level help", async () => {
    const result = await cli("--help");
    expect(result.code).toBe(0);
    for (const text of [
      "run [options] [prompt]",
      "sessions",
      "ANTHROPIC_API_KEY",
      "agentry.json",
      "Precedence",
    ]) {
      expect(result.stdout).toContain(text);
    }
  });

  it("documents every run option, the permission modes, exit codes and examples", async () => {
    const result = await cli("run", "--help");
    expect(result.code).toBe(0);
    for (const option of [
      "--model",
      "--max-turns",
      "--output-format",
      "--cwd",
      "--resume",
      "--permission-mode",
      "--system-prompt",
      "--append-system-prompt",
      '"-" or none reads the prompt from',
      "--print",
      "--continue",
      "Examples:",
      "accept-edits",
      "Exit codes:",
    ]) {
      expect(result.stdout).toContain(option);
    }
  });

  it("documents the sessions subcommands", async () => {
    const list = await cli("sessions", "list", "--help");
    expect(list.stdout).toContain("--json");
    const show = await cli("help", "sessions");
    expect(show.stdout).toMatch(/list\b/);
    expect(show.stdout).toMatch(/show \[options\] <session-id>/);
  });
});

describe("every command documents itself", () => {
  const io = {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {},
    cwd: "/",
  };
  const program = createProgram("0.0.0", io, { exitCode: 0 });
  const all = (command: Command): Command[] => [command, ...command.commands.flatMap(all)];
  const path = (command: Command): string => {
    const names: string[] = [];
    for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
    return names.join(" ");
  };

  it("gives every command and subcommand a description, and every option and argument an explanation", () => {
    const commands = all(program);
    expect(commands.map(path)).toEqual(
      expect.arrayContaining([
        "agentry run",
        "agentry sessions list",
        "agentry agents check",
        "agentry demo",
        "agentry tasks list",
        "agentry tasks show",
        "agentry tasks cancel",
        "agentry tasks wait",
      ]),
    );
    const undocumented: string[] = [];
    for (const command of commands) {
      if (command.description().trim() === "") undocumented.push(path(command));
      for (const option of command.options) {
        if (!option.hidden && option.description.trim() === "")
          undocumented.push(`${path(command)} ${option.flags}`);
      }
      for (const argument of command.registeredArguments) {
        if (argument.description.trim() === "") undocumented.push(`${path(command)} <${argument.name()}>`);
      }
    }
    expect(undocumented).toEqual([]);
  });

  it("points to the docs pages instead of repeating them, and every page it names exists", () => {
    let written = "";
    const capture = new PassThrough().on("data", (chunk: Buffer) => {
      written += chunk.toString();
    });
    const helpOf = createProgram("0.0.0", { ...io, stdout: capture }, { exitCode: 0 });
    const pages = new Map<string, string[]>();
    for (const command of all(helpOf)) {
      written = "";
      command.outputHelp();
      for (const [page] of written.matchAll(/docs\/[\w./-]+\.md/g))
        pages.set(page, [...(pages.get(page) ?? []), path(command)]);
    }
    const missing = [...pages.keys()].filter(
      (page) => !existsSync(new URL(`../../../${page}`, import.meta.url)),
    );
    expect(missing).toEqual([]);
    for (const [page, command] of [
      ["docs/configuration.md", "agentry"],
      ["docs/cli.md", "agentry run"],
      ["docs/subagents.md", "agentry run"],
      ["docs/permissions.md", "agentry run"],
      ["docs/exit-codes.md", "agentry run"],
      ["docs/cli.md", "agentry chat"],
      ["docs/agent-files.md", "agentry agents"],
      ["docs/tasks.md", "agentry tasks"],
      ["docs/mcp.md", "agentry mcp"],
      ["docs/security.md", "agentry doctor"],
    ] as const)
      expect(pages.get(page) ?? [], page).toContain(command);
  });

  it("shows examples for the commands people start with", async () => {
    for (const args of [["run"], ["agents"], ["tasks"], ["demo"], ["sessions"]]) {
      const result = await cli(...args, "--help");
      expect(result.code, args.join(" ")).toBe(0);
      expect(result.stdout, args.join(" ")).toContain("Examples:");
    }
    const top = await cli("--help");
    expect(top.stdout).toContain("agentry demo");
    const run = await cli("run", "--help");
    expect(run.stdout).toContain("--agents <json>");
    expect(run.stdout).toContain("Subagents:");
    const agents = await cli("agents", "--help");
    expect(agents.stdout).toContain("docs/agent-files.md");
  });
});

describe("usage errors exit with 2", () => {
  it("rejects an unknown option with a suggestion", async () => {
    const result = await cli("run", "--max-turn", "3", "hi");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--max-turn'");
    expect(result.stderr).toContain("--max-turns");
  });

  it("rejects bad option values", async () => {
    const turns = await cli("run", "--max-turns", "zero", "hi");
    expect(turns.code).toBe(2);
    expect(turns.stderr).toContain("must be a positive integer");
    const format = await cli("run", "--output-format", "xml", "hi");
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("text, json, stream-json");
    const mode = await cli("run", "--permission-mode", "yolo", "hi");
    expect(mode.code).toBe(2);
  });

  it("requires a prompt and a command", async () => {
    const noPrompt = await cli("run");
    expect(noPrompt.code).toBe(2);
    expect(noPrompt.stderr).toContain('No prompt: agentry run "<prompt>", or pipe one');
    const nothing = await cli();
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("Usage: agentry");
    const unknown = await cli("rnu", "hi");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("run");
  });
});
