import { readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { Session } from "../../src/agent/session/session.ts";
import { LOCK_STALE_MS, SessionBusyError } from "../../src/agent/session/session-lock.ts";
import { userText } from "../../src/model/messages.ts";
import { tempWorkspace } from "./support/harness.ts";

const lockOf = (workspace: string, id: string) => join(workspace, ".agentry", "locks", `${id}.lock`);
const foreign = (holder: string) =>
  JSON.stringify({ holder, token: "f0f0f0f0", since: "2025-01-01T00:00:00.000Z" });

it("a session holds its lock from creation to close; another holder it cannot check is respected while fresh", async () => {
  const workspace = await tempWorkspace();
  const session = await Session.create({ workspace, agentName: "main", model: "m" });
  const path = lockOf(workspace, session.id);
  expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ holder: expect.stringContaining(":") });
  session.close();
  await expect(readFile(path, "utf8")).rejects.toThrow(/ENOENT/);

  await writeFile(path, foreign("elsewhere:42/b=00000000,ns=1,t=1"));
  const refused = Session.resume(workspace, session.id);
  await expect(refused).rejects.toThrow(SessionBusyError);
  await expect(refused).rejects.toThrow(/in use by another agentry process \(elsewhere:42, since 2025/);
});

it("a foreign lock untouched for longer than the stale time is broken", async () => {
  const workspace = await tempWorkspace();
  const first = await Session.create({ workspace, agentName: "main", model: "m" });
  first.close();
  const path = lockOf(workspace, first.id);
  await writeFile(path, foreign("elsewhere:42"));
  const old = new Date(Date.now() - LOCK_STALE_MS - 1_000);
  await utimes(path, old, old);
  const resumed = await Session.resume(workspace, first.id);
  expect(JSON.parse(await readFile(path, "utf8")).token).not.toBe("f0f0f0f0");
  resumed.close();
});

it("a holder whose lock was taken over stops writing, instead of interleaving the transcript", async () => {
  const workspace = await tempWorkspace();
  const session = await Session.create({ workspace, agentName: "main", model: "m" });
  await session.append(userText("mine"));
  await writeFile(lockOf(workspace, session.id), foreign("elsewhere:42"));
  await expect(session.append(userText("too late"))).rejects.toThrow(/was taken by elsewhere:42/);
  const text = await readFile(session.transcriptPath!, "utf8");
  expect(text).toContain("mine");
  expect(text).not.toContain("too late");
});
