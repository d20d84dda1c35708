import { spawn } from "node:child_process";
import { once } from "node:events";
import { expect, it } from "vitest";
import { readTranscript } from "../../src/agent/transcript.ts";
import { tempWorkspace } from "./support/harness.ts";

const writer = `
import { Session } from ${JSON.stringify(new URL("../../src/agent/session.ts", import.meta.url).href)};
const session = await Session.create({ workspace: process.argv[1], agentName: "main", model: "m", id: "killed" });
process.stdout.write("ready\\n");
const big = "x".repeat(200_000);
for (let i = 0; ; i++) await session.append({ role: "user", content: [{ type: "text", text: i + big }] });
`;

it("a process killed while appending leaves only complete lines", async () => {
  const workspace = await tempWorkspace();
  const child = spawn(process.execPath, ["--input-type=module", "-e", writer, workspace], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await once(child.stdout, "data");
  await new Promise((resolve) => setTimeout(resolve, 300));
  child.kill("SIGKILL");
  await once(child, "exit");

  const transcript = await readTranscript(`${workspace}/.agentry/sessions/killed.jsonl`);
  expect(transcript.entries.length).toBeGreaterThan(0);
  expect(transcript.warnings).toEqual([]);
});
