import { afterEach, describe, expect, it } from "vitest";
import { wireToolNames } from "../../subagents/support/subagent-harness.ts";
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

const editThenAnswer = () => [
  { toolCalls: [{ name: "write", args: { path: "out.txt", content: "written\n" } }] },
  { text: "finished" },
];

async function run(
  files: Record<string, string>,
  script: Parameters<typeof startModelServer>[0],
  ...args: string[]
) {
  ws = await makeWorkspace(files);
  const trusted = args.indexOf("--trusted");
  if (trusted !== -1) {
    args.splice(trusted, 1);
    await ws.trust();
  }
  server = await startModelServer(script);
  return runCli(["run", ...args, "go"], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(server, "anthropic") },
  });
}

describe("permissions in a non-interactive run", () => {
  it("denies an edit in default mode and tells the model how the user could allow it", async () => {
    const result = await run({}, editThenAnswer());
    expect(result.code).toBe(0);
    await expect((ws as TestWorkspace).read("out.txt")).rejects.toThrow();
    expect(bodyText(server as ModelServer, 1)).toContain("--permission-mode accept-edits");
  });

  it("allows the edit with --permission-mode accept-edits", async () => {
    const result = await run({}, editThenAnswer(), "--permission-mode", "accept-edits");
    expect(result.code).toBe(0);
    expect(await (ws as TestWorkspace).read("out.txt")).toBe("written\n");
  });

  it("applies allow rules from agentry.json in a folder the user trusts", async () => {
    const config = JSON.stringify({ permission: { edit: { "out.txt": "allow" } } });
    const result = await run({ "agentry.json": config }, editThenAnswer(), "--trusted");
    expect(result.code).toBe(0);
    expect(await (ws as TestWorkspace).read("out.txt")).toBe("written\n");
  });

  it("leaves an untrusted folder's allow rule out, and says so on stderr", async () => {
    const config = JSON.stringify({ permission: { edit: { "out.txt": "allow" } } });
    const result = await run({ "agentry.json": config }, editThenAnswer());
    expect(result.code).toBe(0);
    await expect((ws as TestWorkspace).read("out.txt")).rejects.toThrow();
    expect(result.stderr).toContain("this folder is not trusted");
    expect(result.stderr).toContain("agentry.json (permission edit 'out.txt' allow)");
  });

  it("takes permissionMode from config, and a deny rule beats the mode", async () => {
    const config = JSON.stringify({
      permissionMode: "accept-edits",
      permission: [{ permission: "edit", pattern: "out.txt", action: "deny" }],
    });
    const result = await run({ "agentry.json": config }, editThenAnswer(), "--trusted");
    expect(result.code).toBe(0);
    await expect((ws as TestWorkspace).read("out.txt")).rejects.toThrow();
    expect(bodyText(server as ModelServer, 1)).toContain("denied by rule");
  });

  it("does not offer the root a tool whose rules deny every call (edit '*' hides write and edit)", async () => {
    const config = JSON.stringify({ permission: [{ permission: "edit", pattern: "*", action: "deny" }] });
    const result = await run({ "agentry.json": config }, editThenAnswer());
    expect(result.code).toBe(0);
    await expect((ws as TestWorkspace).read("out.txt")).rejects.toThrow();
    const tools = wireToolNames(server?.requests[0]?.body ?? {});
    expect(tools).toContain("read");
    expect(tools).not.toContain("write");
    expect(tools).not.toContain("edit");
  });

  it("rejects malformed rules, naming the file and key", async () => {
    const config = JSON.stringify({ permission: { bash: { "git *": "sure" } } });
    const result = await run({ "agentry.json": config }, editThenAnswer());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('agentry.json: permission.bash["git *"]');
    expect(result.stderr).toContain('"allow", "ask" or "deny"');
    expect(server?.requests).toHaveLength(0);
  });
});

describe("bashTimeoutSeconds", () => {
  it("is the default timeout of bash commands", async () => {
    const config = JSON.stringify({ bashTimeoutSeconds: 1 });
    const result = await run(
      { "agentry.json": config },
      [{ toolCalls: [{ name: "bash", args: { command: "sleep 30" } }] }, { text: "gave up" }],
      "--permission-mode",
      "bypass",
    );
    // Without the default, `sleep 30` would end by itself and the model hear its (empty) output.
    expect(result.code).toBe(0);
    expect(bodyText(server as ModelServer, 1)).toContain("timed out after 1 s");
  });
});
