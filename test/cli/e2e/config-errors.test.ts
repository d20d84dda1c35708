import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import type { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.ts";
import { createProgram } from "../../../src/cli/program.ts";

/** Commands that never read a workspace's config: the demo writes and runs its own sample repository. */
const NO_CONFIG = new Set(["agentry demo"]);

/** Every leaf command of the real program, with a placeholder for each required argument. */
function commandLines(): string[][] {
  const quiet = new PassThrough();
  const io = { stdin: new PassThrough(), stdout: quiet, stderr: quiet, env: {}, cwd: "/" };
  const program = createProgram("0.0.0", io, { exitCode: 0 });
  const leaves = (command: Command): Command[] =>
    command.commands.length === 0 ? [command] : command.commands.flatMap(leaves);
  return leaves(program)
    .map((command) => {
      const names: string[] = [];
      for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
      const args = command.registeredArguments.filter((a) => a.required).map(() => "placeholder-1");
      return [...names, ...args];
    })
    .filter((argv) => !NO_CONFIG.has(`agentry ${argv[0]}`));
}

async function runMain(argv: string[], cwd: string, home: string) {
  const stdin = new PassThrough();
  stdin.end();
  const out = { stdout: "", stderr: "" };
  const sink = (key: "stdout" | "stderr") => {
    const stream = new PassThrough();
    stream.on("data", (chunk: Buffer) => {
      out[key] += chunk.toString();
    });
    return stream;
  };
  const code = await main(argv, {
    stdin,
    stdout: sink("stdout"),
    stderr: sink("stderr"),
    env: { HOME: home, PATH: process.env.PATH ?? "", ANTHROPIC_API_KEY: "unused" },
    cwd,
  });
  return { code, ...out };
}

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "agentry-config-errors-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 3 });
});

describe("an invalid config is exit 2 with the error, in every command", () => {
  const lines = commandLines();

  it("covers the commands users start with", () => {
    const names = lines.map((argv) => argv.filter((a) => a !== "placeholder-1").join(" "));
    expect(names).toEqual(
      expect.arrayContaining(["run", "chat", "agents list", "tasks list", "sessions list"]),
    );
  });

  it.each(lines.map((argv) => [argv.join(" "), argv] as const))("%s", async (_name, argv) => {
    const dir = await mkdtemp(join(root, "ws-"));
    const home = join(dir, "home");
    const workspace = join(dir, "project");
    await mkdir(home);
    await mkdir(workspace);
    await writeFile(join(workspace, "agentry.json"), JSON.stringify({ maxTurns: "many" }));
    const result = await runMain(argv, workspace, home);
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: expect.stringMatching(/^agentry: agentry\.json: .*maxTurns/),
    });
  });
});
