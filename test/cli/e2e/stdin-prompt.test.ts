import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { afterEach, expect, it } from "vitest";
import { cliBin } from "../../support/cli-bin.ts";
import { startModelServer } from "../../support/model-server.ts";
import { finished, makeWorkspace, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
afterEach(async () => {
  await ws?.cleanup();
  ws = undefined;
});

it("`run -` with a directory as stdin says so, instead of calling the prompt empty", async () => {
  ws = await makeWorkspace();
  const server = await startModelServer([{ text: "unused" }]);
  // What `agentry run - < some-folder` gives the process: fd 0 open on a directory.
  const directory = openSync(ws.dir, "r");
  try {
    const child = spawn(process.execPath, [cliBin(), "run", "-"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
      stdio: [directory, "pipe", "pipe"],
    });
    const result = await finished(child);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/stdin is a directory/);
    expect(result.stderr).not.toMatch(/empty/);
    expect(server.requests).toHaveLength(0);
  } finally {
    closeSync(directory);
    await server.close();
  }
});
