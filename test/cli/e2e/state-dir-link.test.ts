import { mkdir, readdir, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  server = undefined;
  ws = undefined;
});

it.each([
  [".agentry", ".agentry is a symbolic link to"],
  [".agentry/sessions", ".agentry/sessions is a symbolic link to"],
])(
  "a committed %s link to outside the workspace is exit 2 with what to do, and nothing is written there",
  async (link, said) => {
    ws = await makeWorkspace();
    server = await startModelServer({ text: "hello" });
    const outside = join(dirname(ws.dir), "outside");
    await mkdir(outside);
    await mkdir(dirname(join(ws.dir, link)), { recursive: true });
    await symlink(outside, join(ws.dir, link));
    const env = { ...ws.env, ...providerEnv(server, "anthropic") };
    for (const args of [
      ["run", "hi"],
      ["sessions", "list"],
    ]) {
      const result = await runCli(args, { cwd: ws.dir, env });
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toContain(said);
      expect(result.stderr).toMatch(/outside the workspace\. .*Remove the link/);
      expect(result.stderr).not.toMatch(/unexpected error/);
    }
    expect(await readdir(outside)).toEqual([]);
  },
);
