import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { readTranscript } from "../../../src/agent/session/transcript.ts";
import { describeNeeding } from "../../support/components.ts";
import { startModelServer } from "../../support/model-server.ts";
import { tempDir } from "../../support/temp-dir.ts";
import { canMountTmpfs, fillDisk, TMPFS_MISSING, tmpfsDir } from "../../support/tmpfs.ts";
import { runCli } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

/**
 * `agentry run` in a workspace on a 1 MB tmpfs: a disk that really fills up. The run says which file
 * could not be written and that the disk is full (exit 1, no stack trace), and the transcript keeps
 * whole lines only, so the session resumes as if the failed write had never begun.
 */
async function workspaceOnTmpfs(): Promise<{ dir: string; env: Record<string, string> }> {
  const disk = await tmpfsDir("1m");
  const dir = join(disk, "project");
  await mkdir(dir);
  const home = await tempDir("agentry-home-");
  return { dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, NO_COLOR: "1" } };
}

describeNeeding(
  { present: canMountTmpfs(), what: "a tmpfs mount", missing: TMPFS_MISSING },
  "agentry run on a full disk",
  () => {
    it("a reply larger than the free space: exit 1 naming the transcript, whole lines only, and the session resumes", async () => {
      const model = await startModelServer([{ text: "x".repeat(2_000_000) }, { text: "a short answer" }]);
      const ws = await workspaceOnTmpfs();
      const env = { ...ws.env, ...providerEnv(model, "anthropic") };
      const run = await runCli(["run", "Write a lot"], { cwd: ws.dir, env });
      expect(run.code).toBe(1);
      const id = /session (\S+) \(continue with/.exec(run.stderr)?.[1] ?? "";
      const transcript = join(ws.dir, ".agentry", "sessions", `${id}.jsonl`);
      expect(run.stderr).toContain(`the disk is full (ENOSPC): agentry could not write ${transcript}`);
      expect(run.stderr).not.toMatch(/unexpected error|internal error| {4}at /);

      const text = await readFile(transcript, "utf8");
      expect(text.endsWith("\n")).toBe(true);
      for (const line of text.trimEnd().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
      expect(text.length).toBeLessThan(100_000);
      expect((await readTranscript(transcript)).warnings).toEqual([]);

      const resumed = await runCli(["run", "--resume", id, "Shorter, please"], { cwd: ws.dir, env });
      expect(resumed.stderr).not.toContain("incomplete");
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain("a short answer");
    }, 60_000);

    it("a disk already full: exit 1 naming the file it could not write, no stack trace", async () => {
      const model = await startModelServer([{ text: "never" }]);
      const ws = await workspaceOnTmpfs();
      fillDisk(join(ws.dir, ".."));
      const run = await runCli(["run", "Hello"], {
        cwd: ws.dir,
        env: { ...ws.env, ...providerEnv(model, "anthropic") },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        new RegExp(
          `^agentry: the disk is full \\(ENOSPC\\): agentry could not write ${ws.dir}/\\.agentry/\\S+`,
          "m",
        ),
      );
      expect(run.stderr).not.toMatch(/unexpected error| {4}at /);
      expect(model.requests).toHaveLength(0);
    }, 60_000);
  },
);
