import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import {
  agentsCheckCommand,
  agentsListCommand,
  agentsShowCommand,
} from "../../src/cli/commands/agents/agents.ts";
import type { CliIo } from "../../src/cli/io.ts";
import { startA2aServer, type TestA2aServer } from "../support/a2a-server.ts";
import { makeWorkspace, type TestWorkspace } from "./support/cli-process.ts";

/** `agentry agents list|show|check` with remote (A2A) agents: shown as remote, cards checked with --online. */
const servers: TestA2aServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function run(
  ws: TestWorkspace,
  command: (io: CliIo) => Promise<number>,
  env: Record<string, string> = {},
) {
  const stdout = new PassThrough();
  let out = "";
  stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const io: CliIo = {
    stdin: new PassThrough(),
    stdout,
    stderr: new PassThrough(),
    env: { HOME: ws.home, ...env },
    cwd: ws.dir,
  };
  const code = await command(io);
  return { code, stdout: out };
}

const agentFile = (name: string, url: string, header: string) =>
  `---\nname: ${name}\ndescription: A remote helper.\nurl: ${url}\nheaders:\n  Authorization: ${header}\n---\n`;

describe("agents commands with remote agents", () => {
  it("list shows where a remote agent runs; show hides literal header values and keeps variable references", async () => {
    const ws = await makeWorkspace({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VARIABLE}, as agent files write it
      ".agentry/agents/far.md": agentFile("far", "https://agents.example.com/far", "Bearer ${FAR_TOKEN}"),
      ".agentry/agents/leaky.md": agentFile(
        "leaky",
        "https://agents.example.com/leaky",
        "Bearer s3cret-literal",
      ),
    });
    await ws.trust();
    const list = await run(ws, (io) => agentsListCommand({}, io));
    expect(list.stdout).toContain("remote (A2A) at https://agents.example.com/far");

    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VARIABLE}, as agent files write it
    expect((await run(ws, (io) => agentsShowCommand("far", {}, io))).stdout).toContain("Bearer ${FAR_TOKEN}");
    const leaky = await run(ws, (io) => agentsShowCommand("leaky", {}, io));
    expect(leaky.stdout).toContain("runs: on the remote A2A agent at https://agents.example.com/leaky");
    expect(leaky.stdout).not.toContain("s3cret-literal");
    expect((await run(ws, (io) => agentsShowCommand("leaky", { json: true }, io))).stdout).not.toContain(
      "s3cret-literal",
    );
  });

  it("check contacts nobody unless --online; then reads each card, and one out of reach fails it", async () => {
    const server = await startA2aServer([{ reply: "unused" }], {
      token: "tok",
      name: "scripted",
      description: "Answers from a script.",
    });
    servers.push(server);
    const down = await startA2aServer([{ reply: "unused" }]);
    await down.close();
    const ws = await makeWorkspace({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VARIABLE}, as agent files write it
      ".agentry/agents/far.md": agentFile("far", server.url, "Bearer ${FAR_TOKEN}"),
    });
    await ws.trust();
    const offline = await run(ws, (io) => agentsCheckCommand({}, io));
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain("1 remote agent(s) not contacted; add --online");

    const online = await run(ws, (io) => agentsCheckCommand({ online: true }, io), { FAR_TOKEN: "tok" });
    expect(online.code).toBe(0);
    expect(online.stdout).toContain(`far: card read at ${server.url}: scripted — Answers from a script.`);

    await ws.write(".agentry/agents/gone.md", agentFile("gone", down.url, "Bearer x"));
    const failing = await run(ws, (io) => agentsCheckCommand({ online: true }, io), { FAR_TOKEN: "tok" });
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain(`gone: error: cannot reach the remote agent at ${down.url}`);
  });
});
