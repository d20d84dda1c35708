import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { type DetectOptions, detectSandbox } from "../../src/sandbox/detect.ts";
import type { SandboxBackend } from "../../src/sandbox/policy.ts";

/**
 * The machine's OS sandbox for tests that run it for real. Without one, under `CI=true` the test run
 * fails naming the package to install; elsewhere the caller skips with the reason shown.
 */
export async function sandboxBackend(
  options: DetectOptions = {},
): Promise<{ backend: SandboxBackend; skip: undefined } | { backend: undefined; skip: string }> {
  const support = await detectSandbox(options);
  if (support.available) return { backend: support.backend, skip: undefined };
  const message = `the OS sandbox is unavailable (${support.reason}): install the Debian package "bubblewrap"`;
  if (process.env.CI === "true") throw new Error(`CI=true: ${message}`);
  return { backend: undefined, skip: message };
}

/** A temp folder with `ws/` (a git repository with one commit), `home/` (with keys) and `outside/`. */
export interface SandboxFixture {
  base: string;
  workspace: string;
  home: string;
  outside: string;
}

export const SECRETS = {
  sshKey: "-----BEGIN OPENSSH PRIVATE KEY----- ssh-secret-7f3a",
  awsKey: "aws_secret_access_key = aws-secret-19c2",
  dotenv: "API_TOKEN=dotenv-secret-55e1",
} as const;

/** Builds the fixture, removed when the test finishes. */
export async function sandboxFixture(): Promise<SandboxFixture> {
  const base = await realpath(await mkdtemp(join(tmpdir(), "agentry-sandbox-")));
  onTestFinished(() => rm(base, { recursive: true, force: true, maxRetries: 3 }));
  const workspace = join(base, "ws");
  const home = join(base, "home");
  const outside = join(base, "outside");
  await mkdir(join(home, ".ssh"), { recursive: true });
  await mkdir(join(home, ".aws"), { recursive: true });
  await mkdir(outside, { recursive: true });
  await mkdir(join(workspace, "src"), { recursive: true });
  await writeFile(join(home, ".ssh", "id_ed25519"), SECRETS.sshKey);
  await writeFile(join(home, ".aws", "credentials"), SECRETS.awsKey);
  await writeFile(join(outside, "target.txt"), "untouched");
  await writeFile(join(workspace, "src", "a.ts"), "export const a = 1;\n");
  await writeFile(join(workspace, ".env"), SECRETS.dotenv);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], {
      cwd: workspace,
      stdio: "ignore",
    });
  git("init", "-q");
  await writeFile(join(workspace, ".gitignore"), ".env\n");
  git("add", ".");
  git("commit", "-qm", "init");
  return { base, workspace, home, outside };
}
