import { realpath } from "node:fs/promises";
import { type ProjectView, readProject } from "../../config/read-project.ts";
import { readTrustedFolders, revokeTrust, trustFilePath, trustFolder } from "../../config/trust-store.ts";
import { UsageError } from "../../errors.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import type { CliIo } from "../../io.ts";
import { formatTable } from "../../render/table.ts";
import { resolveWorkspace } from "../../workspace.ts";

export interface TrustOptions {
  list?: boolean;
  revoke?: boolean;
  json?: boolean;
}

export async function trustCommand(
  dir: string | undefined,
  options: TrustOptions,
  io: CliIo,
): Promise<number> {
  if (options.list) {
    if (dir !== undefined) throw new UsageError("--list takes no folder");
    return listTrusted(options, io);
  }
  const workspace = await resolveWorkspace(dir, io.cwd);
  const folder = await realpath(workspace);
  if (options.revoke) {
    const revoked = await revokeTrust(io.env, folder);
    io.stdout.write(revoked ? `${folder} is no longer trusted.\n` : `${folder} was not trusted.\n`);
    return revoked ? EXIT_CODES.completed : EXIT_CODES.error;
  }
  const project = await readProject({ workspace, env: io.env });
  await trustFolder(io.env, folder, project.hash);
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ folder, hash: project.hash, applies: applies(project) })}\n`);
    return EXIT_CODES.completed;
  }
  const lines = applies(project);
  io.stdout.write(
    lines.length === 0
      ? `Trusted ${folder}. Its project files widen nothing at present.\n`
      : `Trusted ${folder}. From now on these apply:\n${lines.map((line) => `  ${line}`).join("\n")}\n`,
  );
  const never = project.withheld.filter((item) => item.kind === "never");
  if (never.length > 0)
    io.stdout.write(
      `Still ignored, trusted or not:\n${never.map((item) => `  ${item.source}: ${item.setting} (${item.reason ?? ""})`).join("\n")}\n`,
    );
  return EXIT_CODES.completed;
}

function applies(project: ProjectView): string[] {
  return project.withheld
    .filter((item) => item.kind === "untrusted")
    .map((item) => `${item.source}: ${item.setting}`);
}

async function listTrusted(options: TrustOptions, io: CliIo): Promise<number> {
  const { folders, problem } = await readTrustedFolders(io.env);
  if (problem !== undefined) throw new UsageError(problem);
  if (options.json) io.stdout.write(`${JSON.stringify(folders)}\n`);
  else if (folders.length === 0) io.stdout.write(`No folder is trusted (${trustFilePath(io.env)}).\n`);
  else
    io.stdout.write(
      formatTable(
        ["FOLDER", "TRUSTED AT"],
        folders.map((entry) => [entry.path, entry.trustedAt]),
      ),
    );
  return EXIT_CODES.completed;
}
