import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { Session } from "../../src/agent/session/session.ts";
import { readTranscript } from "../../src/agent/session/transcript.ts";
import { userText } from "../../src/model/messages.ts";
import { DiskFullError } from "../../src/state/disk-full.ts";
import { describeNeeding } from "../support/components.ts";
import { canMountTmpfs, fillDisk, TMPFS_MISSING, tmpfsDir } from "../support/tmpfs.ts";

/** The transcript writer on a real full disk (a small tmpfs): a line goes in whole or not at all. */
describeNeeding(
  { present: canMountTmpfs(), what: "a tmpfs mount", missing: TMPFS_MISSING },
  "a transcript on a full disk",
  () => {
    it("a message larger than the free space: DiskFullError naming the file, which keeps its whole lines", async () => {
      const workspace = await tmpfsDir("256k");
      const session = await Session.create({ workspace, agentName: "main", model: "test:model" });
      await session.append(userText("first"));
      const before = await readFile(session.transcriptPath!, "utf8");

      const failed = session.append(userText("y".repeat(400_000)));
      await expect(failed).rejects.toBeInstanceOf(DiskFullError);
      await expect(failed).rejects.toThrow(`could not write ${session.transcriptPath}`);
      expect(await readFile(session.transcriptPath!, "utf8")).toBe(before);

      await session.append(userText("a short one"));
      session.close();
      const read = await readTranscript(session.transcriptPath!);
      expect(read.warnings).toEqual([]);
      expect(read.entries.filter((e) => e.type === "message")).toHaveLength(2);
    });

    it("a session that cannot start on a full disk leaves no empty transcript", async () => {
      const workspace = await tmpfsDir("256k");
      // The state folder exists already (a first session made it); then the disk fills up.
      const first = await Session.create({ workspace, agentName: "main", model: "test:model" });
      first.close();
      fillDisk(workspace);
      const created = Session.create({
        workspace,
        agentName: "main",
        model: "test:model",
        lock: false,
        id: "s-full",
      });
      await expect(created).rejects.toBeInstanceOf(DiskFullError);
      await expect(created).rejects.toThrow(
        `could not write ${join(workspace, ".agentry", "sessions", "s-full.jsonl")}`,
      );
      expect(await readdir(join(workspace, ".agentry", "sessions"))).toEqual([`${first.id}.jsonl`]);
    });
  },
);
