import { access, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { Command, CommanderError } from "commander";
import { afterEach, describe, expect, it } from "vitest";
import { registerDemoCommand } from "../../src/cli/commands/demo/demo-command.ts";
import type { CliIo } from "../../src/cli/io.ts";

/** `agentry demo …` through commander, in this process, with captured output (not a terminal). */
async function demo(args: string[]) {
  const out = { stdout: "", stderr: "" };
  const io: CliIo = {
    stdin: new PassThrough(),
    stdout: { write: (text: string) => (out.stdout += text) } as unknown as CliIo["stdout"],
    stderr: { write: (text: string) => (out.stderr += text) } as unknown as CliIo["stderr"],
    env: { NO_COLOR: "1" },
    cwd: await realpath(tmpdir()),
  };
  const result = { exitCode: 0 };
  const program = new Command("agentry").exitOverride().configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
  });
  registerDemoCommand(program, { io, result });
  try {
    await program.parseAsync(["demo", ...args], { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    result.exitCode = error.exitCode === 0 ? 0 : 2;
  }
  return { ...out, code: result.exitCode };
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

const kept: string[] = [];
afterEach(async () => {
  await Promise.all(kept.splice(0).map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 })));
});

describe("agentry demo command", () => {
  it("prints one JSON object with the children, the context numbers and the answer", async () => {
    const result = await demo(["--output-format", "json", "--pace-ms", "60"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({ status: "completed", maxConcurrentChildren: 3 });
    expect(parsed.workspace).toBeUndefined();
    expect(parsed.context).toMatchObject({ tokenEstimate: "characters / 4" });
    expect(String(parsed.answer)).toContain("## Layout");
  });

  it("shows start and end lines, the answer and the numbers in text; --keep keeps the repository", async () => {
    const result = await demo(["--keep", "--pace-ms", "0"]);
    const path = /Sample repository: (\S+)/.exec(result.stdout)?.[1];
    if (path !== undefined) kept.push(path);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("[main/explore-2] started explore (demo): find how tests are run");
    expect(result.stderr).toMatch(/^\[main\/explore-1\] completed in \S+, 3 turns, [\d.]+k tokens$/m);
    expect(result.stderr).toMatch(/^\[total\] 4 agents \(4 done\) · [\d.]+k tokens in/m);
    expect(result.stdout).toContain("## TODOs and the bug");
    expect(result.stdout).toMatch(
      /the 3 children read +[\d,]+ characters \(≈ [\d.]+k tokens\) in \d+ tool calls/,
    );
    expect(result.stdout).toMatch(
      /the parent's context kept +[\d,]+ characters \(≈ \d+ tokens\): their 3 reports/,
    );
    expect(result.stdout).toContain("Tokens are estimated as characters / 4");
    // NO_COLOR and no terminal: plain text, no escape sequences.
    expect(result.stdout + result.stderr).not.toContain("\u001b[");
    expect(result.stdout).toContain(`Kept the sample repository: ${path}`);
    expect(await exists(join(path ?? "", "src", "cart.ts"))).toBe(true);
    expect(await exists(join(path ?? "", ".agentry", "sessions"))).toBe(true);
  });

  it("deletes the sample repository when --keep is not given", async () => {
    const result = await demo(["--pace-ms", "0"]);
    const path = /Sample repository: (\S+)/.exec(result.stdout)?.[1] ?? "";
    expect(path).toMatch(/agentry-demo-/);
    expect(await exists(path)).toBe(false);
  });

  it("rejects a bad option value with a usage error naming it", async () => {
    const format = await demo(["--output-format", "xml"]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("xml");
    const pace = await demo(["--pace-ms", "soon"]);
    expect(pace.code).toBe(2);
    expect(pace.stderr).toContain("--pace-ms");
  });

  it("explains itself in --help", async () => {
    const help = await demo(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--keep");
    expect(help.stdout).toContain("--output-format");
    expect(help.stdout).toContain("no API key");
    expect(help.stdout).not.toContain("--pace-ms");
  });
});
