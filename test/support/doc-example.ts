import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type CliResult, finished } from "../cli/support/cli-process.ts";
import { tempDir } from "./temp-dir.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The first fenced block of `language` after the heading `heading` (its text, without the `#`s) of
 * the Markdown file `document`, relative to the repository. Throws when there is none, so a renamed
 * heading or a removed example fails the test that runs it.
 */
export function docBlock(document: string, heading: string, language = "ts"): string {
  const lines = readFileSync(join(REPO, document), "utf8").split("\n");
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, "").trim() === heading);
  if (start === -1) throw new Error(`${document}: no heading "${heading}"`);
  const open = lines.findIndex((line, i) => i > start && line.trim() === `\`\`\`${language}`);
  const nextHeading = lines.findIndex((line, i) => i > start && /^#+ /.test(line));
  if (open === -1 || (nextHeading !== -1 && nextHeading < open))
    throw new Error(`${document}: no \`\`\`${language} block under "${heading}"`);
  const close = lines.findIndex((line, i) => i > open && line.trim() === "```");
  return `${lines.slice(open + 1, close).join("\n")}\n`;
}

/**
 * Runs `code` as a user's script would: its own file in its own folder, importing `agentry-ai` from
 * that folder's `node_modules` (a link to this checkout, so the sources run), with `cwd` as the
 * current directory and only `env` (plus PATH) as its environment.
 */
export async function runDocExample(
  code: string,
  options: { cwd: string; env: Record<string, string> },
): Promise<CliResult> {
  const folder = await tempDir("agentry-doc-example-");
  await mkdir(join(folder, "node_modules"));
  await symlink(REPO, join(folder, "node_modules", "agentry-ai"));
  const script = join(folder, "example.mts");
  await writeFile(script, code);
  const child = spawn(process.execPath, [script], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return finished(child);
}
