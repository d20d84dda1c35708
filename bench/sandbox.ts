// Sandbox start-up overhead per command: the wall time of `true` run through the bash tool's exec with
// the OS sandbox (bubblewrap) minus the same without it, in pairs, on a git repository with a .env
// and a few hundred files. The walk for files the read rules keep back is reused for 3 s, so the
// first command of a burst pays it ("cold"), the others not.
//   node bench/sandbox.ts [--runs 41]
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DEFAULT_RULES } from "../src/permissions/defaults.ts";
import { DEFAULT_COMMAND_ENV } from "../src/sandbox/command-env.ts";
import { confineCommand } from "../src/sandbox/confine-command.ts";
import { detectSandbox } from "../src/sandbox/detect.ts";
import { DEFAULT_SANDBOX_SETTINGS, type SandboxPolicy, type SandboxProfile } from "../src/sandbox/policy.ts";
import { policyForAgent } from "../src/sandbox/policy-for-agent.ts";
import { UnreadableFileFinder } from "../src/sandbox/unreadable-files.ts";
import { nodeOperations } from "../src/tools/node-operations.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { type Row, row } from "./support/row.ts";
import { tempDir } from "./support/temp-dir.ts";

const FIGURE = "sandbox";

export async function measureSandbox(options: BenchArgs & { files?: number } = {}): Promise<Row[]> {
  const runs = options.runs ?? 41;
  const support = await detectSandbox();
  if (!support.available) {
    throw new Error(`no OS sandbox on this machine (${support.reason}); install bubblewrap to measure it`);
  }
  const { dir, remove } = await tempDir("sandbox");
  try {
    await repository(dir, options.files ?? 500);
    const policy = await policyForAgent({
      backend: support.backend,
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: dir,
      settings: DEFAULT_SANDBOX_SETTINGS,
    });
    const run = (sandbox?: { policy: SandboxPolicy; profile: SandboxProfile }) => timed(dir, sandbox);
    for (let i = 0; i < 3; i++) await run({ policy, profile: "workspace-write" });
    const plain: number[] = [];
    const write: number[] = [];
    const readOnly: number[] = [];
    for (let i = 0; i < runs; i++) {
      const base = await run();
      plain.push(base);
      write.push((await run({ policy, profile: "workspace-write" })) - base);
      readOnly.push((await run({ policy, profile: "read-only" })) - base);
    }
    const cold: number[] = [];
    for (let i = 0; i < Math.min(runs, 15); i++) {
      const started = performance.now();
      await confineCommand(policy, "workspace-write", ["true"], dir, { finder: new UnreadableFileFinder() });
      cold.push(performance.now() - started);
    }
    return [
      row(FIGURE, "command without sandbox (`true`)", "ms", plain, {
        note: `Wall time of nodeOperations.exec("true") — bash in its own process group — on a git repository with ${options.files ?? 500} files and a .env; sandboxed figures are paired differences to it.`,
      }),
      row(FIGURE, "start-up overhead per command, workspace-write", "ms", write.map(clampZero), {
        goal: { max: 15 },
      }),
      row(FIGURE, "start-up overhead per command, read-only", "ms", readOnly.map(clampZero)),
      row(FIGURE, "policy to bwrap arguments, cold (walk for .env files)", "ms", cold, {
        note: "Informative: the first command of a burst walks the workspace for files the read rules keep back; the walk is reused for 3 s.",
      }),
    ];
  } finally {
    await remove();
  }
}

const clampZero = (value: number) => Math.max(0, value);

async function timed(dir: string, sandbox?: { policy: SandboxPolicy; profile: SandboxProfile }) {
  const started = performance.now();
  const result = await nodeOperations.exec("true", {
    cwd: dir,
    signal: new AbortController().signal,
    timeoutMs: 10_000,
    inheritEnv: DEFAULT_COMMAND_ENV,
    ...(sandbox === undefined ? {} : { sandbox }),
  });
  if (result.exitCode !== 0) throw new Error(`the command failed: ${result.output}`);
  return performance.now() - started;
}

async function repository(dir: string, files: number): Promise<void> {
  for (let i = 0; i < files; i++) {
    const folder = join(dir, "src", `m${i % 20}`);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  await writeFile(join(dir, ".env"), "TOKEN=x\n");
  execFileSync("git", ["init", "-q"], { cwd: dir });
}

await benchMain(import.meta, measureSandbox);
