import { expect, it } from "vitest";
import { makeWorkspace, runCli } from "../cli/support/cli-process.ts";

// `agentry ui` settles its token before it opens anything: another address than loopback needs a
// token chosen by the user, as `agentry serve` does.

it("refuses to listen beyond loopback without AGENTRY_UI_TOKEN, and a token too short", async () => {
  const ws = await makeWorkspace({});
  const open = await runCli(["ui", "--host", "0.0.0.0", "--port", "0"], { cwd: ws.dir, env: ws.env });
  expect(open.code).toBe(2);
  expect(open.stderr).toContain(
    "agentry ui refuses to listen on 0.0.0.0 without a token: set AGENTRY_UI_TOKEN",
  );
  expect(open.stdout).toBe("");
  const short = await runCli(["ui", "--port", "0"], {
    cwd: ws.dir,
    env: { ...ws.env, AGENTRY_UI_TOKEN: "short" },
  });
  expect(short.code).toBe(2);
  expect(short.stderr).toContain("AGENTRY_UI_TOKEN must be at least 16 characters");
});
