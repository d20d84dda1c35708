import { execFile } from "node:child_process";
import { homedir } from "node:os";
import { relative } from "node:path";
import { instructionsReport } from "../../../instructions/describe-instructions.ts";
import { DEFAULT_COMMAND_ENV } from "../../../sandbox/command-env.ts";
import { detectSandbox } from "../../../sandbox/detect.ts";
import type { SandboxPolicy } from "../../../sandbox/policy.ts";
import { policyForAgent } from "../../../sandbox/policy-for-agent.ts";
import { describePeerFiles } from "../../config/peers/peer-summary.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import type { CliIo } from "../../io.ts";
import { loadRunSettings } from "../../wire/prepare-run.ts";

export interface DoctorOptions {
  cwd?: string;
  json?: boolean;
}

type Status = "ok" | "missing" | "off";

interface Check {
  name: string;
  status: Status;
  detail: string;
  fix?: string;
}

/** `agentry doctor`: each check on one line, what to do for those that fail, and the sandbox profile. */
export async function doctorCommand(options: DoctorOptions, io: CliIo): Promise<number> {
  const { workspace, settings, rules, project, instructions } = await loadRunSettings(
    options.cwd === undefined ? {} : { cwd: options.cwd },
    io,
  );
  const checks: Check[] = [nodeCheck()];
  const support = await detectSandbox({ path: io.env.PATH ?? "" });
  let policy: SandboxPolicy | undefined;
  if (!settings.sandbox.enabled) {
    checks.push({
      name: "sandbox",
      status: "off",
      detail: "turned off by sandbox.enabled in your config or AGENTRY_SANDBOX",
      fix: 'Remove "enabled": false from "sandbox" in your config and unset AGENTRY_SANDBOX.',
    });
  } else if (support.available) {
    const { backend } = support;
    policy = await policyForAgent({
      backend,
      rules,
      mode: settings.permissionMode.value,
      workspace,
      settings: settings.sandbox,
      home: io.env.HOME || homedir(),
    });
    checks.push({
      name: "sandbox",
      status: "ok",
      detail:
        backend.kind === "bwrap"
          ? `bubblewrap at ${backend.path}${backend.disableUserns ? "" : " (older than 0.8: commands may make user namespaces)"}`
          : `Seatbelt at ${backend.path}`,
    });
  } else {
    checks.push({ name: "sandbox", status: "missing", detail: support.reason, fix: support.hint });
  }
  checks.push(
    await toolCheck(
      "ripgrep",
      "rg",
      "--version",
      "Install ripgrep (Debian/Ubuntu: apt-get install ripgrep; macOS: brew install ripgrep).",
    ),
  );
  checks.push(await toolCheck("git", "git", "--version", "Install git to use worktree subagents."));

  const env = [...DEFAULT_COMMAND_ENV, ...settings.sandbox.env];
  const waiting = project.withheld.filter((item) => item.kind === "untrusted").length;
  const trust = {
    trusted: project.trust.trusted,
    ...(project.trust.by ? { by: project.trust.by } : {}),
    withheld: waiting,
  };
  const loaded = instructionsReport(instructions);
  if (options.json) {
    io.stdout.write(
      `${JSON.stringify({ checks, trust, instructions: loaded, profile: policy && profile(policy, workspace), env }, null, 2)}\n`,
    );
  } else {
    io.stdout.write(`${folderLine(project.trust, waiting)}\n`);
    io.stdout.write(`${instructionsLine(loaded.summary, loaded.files.length, loaded.problems.length)}\n`);
    for (const line of describePeerFiles(project.loaded.peers ?? [], project.withheld))
      io.stdout.write(`           ${line}\n`);
    for (const check of checks) {
      io.stdout.write(`${mark(check.status)} ${check.name.padEnd(8)} ${check.detail}\n`);
      if (check.fix) io.stdout.write(`           ${check.fix}\n`);
    }
    if (policy) io.stdout.write(`\n${describeProfile(policy, workspace, settings.permissionMode.value)}`);
    io.stdout.write(`\nCommands inherit: ${env.join(" ")}\n`);
  }
  return checks.some((check) => check.status !== "ok") ? EXIT_CODES.error : EXIT_CODES.completed;
}

/** Whether the workspace is trusted: informational, never a failure (an untrusted folder only narrows). */
function folderLine(trust: { trusted: boolean; by?: string; changed?: boolean }, waiting: number): string {
  if (trust.trusted) return `✓ folder   trusted (${trust.by ?? "agentry trust"})`;
  const state = trust.changed ? "trusted before, but its project settings changed since" : "not trusted";
  const detail =
    waiting === 0
      ? "its project files widen nothing"
      : `${waiting} project setting${waiting === 1 ? "" : "s"} withheld: agentry config lists them, agentry trust applies them`;
  return `- folder   ${state}; ${detail}`;
}

/** What instruction files a run here reads: informational, never a failure (problems are warnings on stderr). */
function instructionsLine(summary: string, files: number, problems: number): string {
  const detail =
    files === 0 ? "none (AGENTS.md, CLAUDE.md …: docs/instructions.md)" : summary.replace(/^loaded /, "");
  const note = problems === 0 ? "" : `; ${problems} not read or cut (see the warnings)`;
  return `${files === 0 ? "-" : "✓"} instructions ${detail}${note}`;
}

function nodeCheck(): Check {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  const ok = major > 22 || (major === 22 && minor >= 18);
  return {
    name: "node",
    status: ok ? "ok" : "missing",
    detail: `Node.js ${process.versions.node}`,
    ...(ok ? {} : { fix: "agentry needs Node.js 22.18 or newer (24 recommended)." }),
  };
}

function toolCheck(name: string, file: string, flag: string, fix: string): Promise<Check> {
  return new Promise((resolve) => {
    execFile(file, [flag], { timeout: 5_000 }, (error, stdout) => {
      if (error) resolve({ name, status: "missing", detail: `${file} was not found`, fix });
      else resolve({ name, status: "ok", detail: String(stdout).split("\n")[0]?.trim() ?? file });
    });
  });
}

function profile(policy: SandboxPolicy, workspace: string) {
  const rel = (path: string) => relative(workspace, path) || ".";
  return {
    ceiling: policy.ceiling,
    writable: policy.writableRoots,
    protected: policy.readOnlyPaths.map(rel),
    hidden: policy.hiddenPaths,
    allowedHosts: policy.allowedHosts,
  };
}

function describeProfile(policy: SandboxPolicy, workspace: string, mode: string): string {
  const p = profile(policy, workspace);
  const lines = [
    `The main agent's commands here (permission mode ${mode}):`,
    p.ceiling === "read-only"
      ? "  write:    nothing (a read-only view of the workspace), but a private /tmp"
      : `  write:    ${p.writable.join(", ")} and a private /tmp`,
    ...(p.protected.length > 0 ? [`  read-only: ${p.protected.join(" ")}`] : []),
    `  hidden:   ${p.hidden.length} secret locations (~/.ssh, ~/.aws, …) and the files your read rules keep back (.env)`,
    `  network:  ${p.allowedHosts.length === 0 ? "none" : p.allowedHosts.join(", ")}`,
  ];
  return `${lines.join("\n")}\n`;
}

function mark(status: Status): string {
  return status === "ok" ? "✓" : status === "off" ? "-" : "✗";
}
