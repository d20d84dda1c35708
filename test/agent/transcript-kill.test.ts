import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, statSync } from "node:fs";
import { expect, it } from "vitest";
import { readTranscript } from "../../src/agent/session/transcript.ts";
import { waitFor } from "../support/processes.ts";
import { tempWorkspace } from "./support/harness.ts";

const writer = `
import { Session } from ${JSON.stringify(new URL("../../src/agent/session/session.ts", import.meta.url).href)};
const session = await Session.create({ workspace: process.argv[1], agentName: "main", model: "m", id: "killed" });
process.stdout.write("ready\\n");
const big = "x".repeat(200_000);
for (let i = 0; ; i++) await session.append({ role: "user", content: [{ type: "text", text: i + big }] });
`;

it("a process killed while appending leaves complete lines, at worst one torn last line the reader skips", async () => {
  const workspace = await tempWorkspace();
  const child = spawn(process.execPath, ["--input-type=module", "-e", writer, workspace], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await once(child.stdout, "data");
  // Killed once a few messages are written, while it goes on writing more.
  const file = `${workspace}/.agentry/sessions/killed.jsonl`;
  await waitFor(
    () => existsSync(file) && statSync(file).size > 3 * 200_000,
    10_000,
    "a few messages written",
  );
  child.kill("SIGKILL");
  await once(child, "exit");

  const transcript = await readTranscript(`${workspace}/.agentry/sessions/killed.jsonl`);
  expect(transcript.entries.length).toBeGreaterThan(0);
  // Linux may cut a large write short when SIGKILL arrives mid-syscall: only the last line can be torn.
  expect(transcript.warnings.length).toBeLessThanOrEqual(1);
  for (const warning of transcript.warnings) expect(warning).toMatch(/the last line is incomplete/);
});
