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

it("an empty model reply is exit 1 with a line that says so, in every output format", async () => {
  ws = await makeWorkspace();
  server = await startModelServer({ text: "" });
  const env = { ...ws.env, ...providerEnv(server, "anthropic") };
  const text = await runCli(["run", "hi"], { cwd: ws.dir, env });
  expect({ code: text.code, stdout: text.stdout }).toEqual({ code: 1, stdout: "" });
  expect(text.stderr).toMatch(/^error: The model's reply was empty \(no text, no tool call\)/m);
  expect(text.stderr).toMatch(/continue with: agentry run --resume/);

  const json = await runCli(["run", "--output-format", "json", "hi"], { cwd: ws.dir, env });
  expect(json.code).toBe(1);
  expect(JSON.parse(json.stdout)).toMatchObject({
    outcome: "error",
    result: "",
    error: expect.stringContaining("empty"),
  });
});

it("a reply cut at the output limit before any text says that", async () => {
  ws = await makeWorkspace();
  server = await startModelServer({ text: "", stopReason: "length" });
  const result = await runCli(["run", "hi"], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(server, "anthropic") },
  });
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/output token limit/);
});
