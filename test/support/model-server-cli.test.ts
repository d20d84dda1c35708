import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type ModelServerProcess, startModelServerProcess } from "./model-server-process.ts";
import { tempDir } from "./temp-dir.ts";
import { scaled } from "./time-scale.ts";

const cliPath = fileURLToPath(new URL("./model-server-cli.ts", import.meta.url));
let child: ModelServerProcess | undefined;
afterEach(async () => {
  await child?.close();
  child = undefined;
});

async function runCli(args: string[], script?: string) {
  const dir = await tempDir("model-server-cli-");
  const scriptPath = join(dir, "script.json");
  if (script !== undefined) await writeFile(scriptPath, script);
  const result = spawnSync(
    process.execPath,
    [cliPath, ...args.map((arg) => arg.replace("$SCRIPT", scriptPath))],
    {
      encoding: "utf8",
      timeout: scaled(10_000),
    },
  );
  return { status: result.status, stderr: result.stderr };
}

describe("model-server-cli", () => {
  it("serves a JSON script in its own process and writes each recorded request to --record", async () => {
    child = await startModelServerProcess([{ text: "from the child" }, { status: 529 }]);
    expect(child.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ok = await fetch(`${child.anthropicBaseUrl}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({ model: "m", stream: false }),
    });
    expect(await ok.json()).toMatchObject({ content: [{ type: "text", text: "from the child" }] });
    const overloaded = await fetch(`${child.openaiBaseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "g" }),
    });
    expect(overloaded.status).toBe(529);
    await expect
      .poll(async () => (await child!.requests()).map((request) => [request.protocol, request.body.model]))
      .toEqual([
        ["anthropic", "m"],
        ["openai-chat", "g"],
      ]);
    await expect.poll(async () => (await child!.requests())[1]?.finishedAt).toBeDefined();
  });

  it("exits on SIGTERM", async () => {
    child = await startModelServerProcess({ hang: true });
    const hanging = fetch(`${child.url}/v1/messages`, { method: "POST", body: "{}" }).then(
      () => "answered",
      () => "dropped",
    );
    await expect.poll(async () => (await child!.requests()).length).toBe(1);
    await child.close();
    expect(await hanging).toBe("dropped");
    child = undefined;
  });

  it.each([
    ["no script argument", [], undefined, /missing the script file argument/],
    ["an unreadable script", ["/nonexistent/script.json"], undefined, /cannot read script/],
    ["a script that is not JSON", ["$SCRIPT"], "{oops", /is not valid JSON/],
    ["a reply with an unknown key", ["$SCRIPT"], '[{"txt":"hi"}]', /invalid script .*txt/s],
    ["an unknown option", ["$SCRIPT", "--port", "1"], "[]", /Unknown option '--port'/],
  ])("fails with exit code 2 and a clear message on %s", async (_case, args, script, message) => {
    const result = await runCli(args, script);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
