import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { bodyText, providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

async function setup(script: Parameters<typeof startModelServer>[0]) {
  ws = await makeWorkspace({ "src/app.ts": "export const answer = 42;\n", ".env": "TOKEN=hunter2\n" });
  server = await startModelServer(script);
  const env = { ...ws.env, ...providerEnv(server, "anthropic") };
  const dir = ws.dir;
  const cli = (args: string[], input?: string) =>
    runCli(args, { cwd: dir, env, ...(input === undefined ? {} : { input }) });
  return { cli, server, ws };
}

describe("@ mentions", () => {
  it("run inlines a mentioned file into the first user message", async () => {
    const { cli, server } = await setup([{ text: "It exports 42." }]);
    const result = await cli(["run", "explain @src/app.ts"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("@ src/app.ts (1 line)");
    const sent = bodyText(server, 0);
    expect(sent).toContain("explain @src/app.ts");
    expect(sent).toContain('<file path=\\"src/app.ts\\">\\n1\\texport const answer = 42;\\n</file>');
  });

  it("run refuses a mention the read rules do not allow: exit 2, nothing sent, no session", async () => {
    const { cli, server, ws } = await setup([{ text: "unused" }]);
    const result = await cli(["run", "what is in @.env"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("agentry: @.env is not inlined: the permission rules refuse it");
    expect(server.requests).toHaveLength(0);
    expect(await ws.transcripts()).toEqual({});
  });

  it("chat inlines mentions per turn, and a refused one costs only its line", async () => {
    const { cli, server } = await setup([{ text: "Seen." }]);
    const result = await cli(["chat"], "look at @.env\nlook at @src/app.ts\n");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("@.env is not inlined");
    expect(server.requests).toHaveLength(1);
    expect(bodyText(server, 0)).toContain("export const answer = 42;");
    expect(bodyText(server, 0)).not.toContain("hunter2");
  });
});
