import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CHILD_MARK = "# You are a subagent";

/**
 * Every instruction file a user of Claude Code, Codex and OpenCode keeps, each with its marker, in
 * the order docs/instructions.md gives: the user's (in the scratch HOME), then the project's from the
 * repository's top folder (`project/`) down to the workspace (`project/pkg/`), each CLAUDE.md's
 * imports after it, then the project config's `instructions`.
 */
const ORDERED: Array<[string, string]> = [
  ["~/.config/agentry/AGENTS.md", "MARK-USER-AGENTRY"],
  ["~/.claude/CLAUDE.md", "MARK-USER-CLAUDE"],
  ["~/.codex/AGENTS.md", "MARK-USER-CODEX"],
  ["~/.config/opencode/AGENTS.md", "MARK-USER-OPENCODE"],
  ["AGENTS.md", "MARK-ROOT-AGENTS"],
  ["CLAUDE.md", "MARK-ROOT-CLAUDE\n@docs/imported.md"],
  ["docs/imported.md", "MARK-ROOT-IMPORT"],
  [".claude/CLAUDE.md", "MARK-ROOT-DOT-CLAUDE"],
  ["CLAUDE.local.md", "MARK-ROOT-LOCAL"],
  ["pkg/AGENTS.md", "MARK-WS-AGENTS"],
  ["pkg/CLAUDE.md", "MARK-WS-CLAUDE\n@chain/l1.md\n@../../outside.md"],
  ...[1, 2, 3, 4, 5].map((level): [string, string] => [
    `pkg/chain/l${level}.md`,
    `MARK-LEVEL-${level}\n@l${level + 1}.md`,
  ]),
  ["pkg/.claude/CLAUDE.md", "MARK-WS-DOT-CLAUDE"],
  ["pkg/CLAUDE.local.md", "MARK-WS-LOCAL"],
  ["pkg/rules/style.md", "MARK-LISTED"],
];
const MARKERS = ORDERED.map(([, text]) => text.split("\n")[0] ?? "");

async function fixtureProject(): Promise<{ ws: TestWorkspace; cwd: string }> {
  const ws = await makeWorkspace();
  execFileSync("git", ["init", "-q", ws.dir]);
  for (const [path, text] of ORDERED) {
    if (path.startsWith("~/")) await writeHome(ws, path.slice(2), `${text}\n`);
    else await ws.write(path, `${text}\n`);
  }
  await ws.write("pkg/chain/l6.md", "MARK-LEVEL-6\n");
  await writeFile(join(dirname(ws.dir), "outside.md"), "MARK-OUTSIDE\n");
  await ws.write("pkg/agentry.json", JSON.stringify({ instructions: ["rules/*.md"] }));
  await ws.write("pkg/sub/AGENTS.md", "MARK-NESTED-SUB\n");
  await ws.write("pkg/sub/file.txt", "the file under sub\n");
  return { ws, cwd: join(ws.dir, "pkg") };
}

async function writeHome(ws: TestWorkspace, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(ws.home, path)), { recursive: true });
  await writeFile(join(ws.home, path), text);
}

function systemOf(request: RecordedRequest | undefined): string {
  const system = request?.body.system;
  if (typeof system === "string") return system;
  if (Array.isArray(system)) return system.map((block: { text?: string }) => block.text ?? "").join("\n");
  return "";
}

function expectInOrder(text: string, markers: readonly string[]): void {
  const at = markers.map((marker) => text.indexOf(marker));
  expect(markers.filter((_, i) => at[i] === -1)).toEqual([]);
  expect(at).toEqual([...at].sort((a, b) => a - b));
}

describe("instruction files at the wire", () => {
  it("puts every file's marker in the root's and a child's system prompt in the documented order, refuses a 6th import level and an import outside, and adds sub/AGENTS.md only after a file under sub/ is read", async () => {
    const { ws, cwd } = await fixtureProject();
    const isChild = (request: RecordedRequest) => systemOf(request).includes(CHILD_MARK);
    server = await startModelServer((request) => {
      const messages = (request.body.messages as unknown[]).length;
      if (isChild(request))
        return messages === 1
          ? { toolCalls: [{ id: "toolu_read", name: "read", args: { path: "sub/file.txt" } }] }
          : { text: "child done" };
      return messages === 1
        ? {
            toolCalls: [
              {
                id: "toolu_task",
                name: "task",
                args: { description: "Read the sub file", prompt: "Read sub/file.txt and report." },
              },
            ],
          }
        : { text: "root done" };
    });
    const result = await runCli(["run", "--permission-mode", "bypass", "Delegate the reading."], {
      cwd,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("root done");

    const requests = server.requests;
    const roots = requests.filter((request) => !isChild(request));
    const children = requests.filter(isChild);
    expect(roots).toHaveLength(2);
    expect(children).toHaveLength(2);

    for (const request of [roots[0], children[0]]) {
      const system = systemOf(request);
      expectInOrder(system, MARKERS);
      expect(system).not.toContain("MARK-LEVEL-6");
      expect(system).not.toContain("MARK-OUTSIDE");
      expect(system).not.toContain("MARK-NESTED-SUB");
    }
    // The child has the root's section as it is, after its own prompt.
    const section = (system: string) => system.slice(system.indexOf("# Instructions"));
    expect(section(systemOf(children[0]))).toBe(section(systemOf(roots[0])));

    // sub/AGENTS.md: nowhere before the read, then in the read's result (not in the system prompt).
    expect(children[0]?.rawBody).not.toContain("MARK-NESTED-SUB");
    expect(JSON.stringify(children[1]?.body.messages)).toContain("MARK-NESTED-SUB");
    expect(systemOf(children[1])).not.toContain("MARK-NESTED-SUB");
    expect(roots.every((request) => !request.rawBody.includes("MARK-NESTED-SUB"))).toBe(true);

    expect(result.stderr).toContain(
      "warning: chain/l5.md: import @l6.md was not read: imports go 5 levels deep at most",
    );
    expect(result.stderr).toContain(
      `warning: CLAUDE.md: import @../../outside.md was not read: ${join(dirname(ws.dir), "outside.md")} is outside the project`,
    );
  });

  it("agentry config and agentry doctor say what was loaded", async () => {
    const { ws, cwd } = await fixtureProject();
    const config = await runCli(["config"], { cwd, env: ws.env });
    expect(config.code, config.stderr).toBe(0);
    expect(config.stdout).toMatch(
      /^Instructions: loaded ~\/\.config\/agentry\/AGENTS\.md \(\d+ bytes\), .*\.\.\/CLAUDE\.md \(\d+ bytes\) \+ 1 import, .*CLAUDE\.md \(\d+ bytes\) \+ 5 imports, .*rules\/style\.md \(\d+ bytes\)$/m,
    );
    expect(config.stdout).toContain(
      "  chain/l5.md: import @l6.md was not read: imports go 5 levels deep at most",
    );
    const json = JSON.parse((await runCli(["config", "--json"], { cwd, env: ws.env })).stdout) as {
      instructions: { files: Array<{ label: string; text?: string }> };
    };
    expect(json.instructions.files.map((file) => file.label)).toContain("../docs/imported.md");
    expect(json.instructions.files.every((file) => file.text === undefined)).toBe(true);

    const doctor = await runCli(["doctor"], { cwd, env: ws.env });
    expect(doctor.stdout).toMatch(
      /^✓ instructions ~\/\.config\/agentry\/AGENTS\.md .*; 2 not read or cut \(see the warnings\)$/m,
    );
    expect(doctor.stderr).toContain("imports go 5 levels deep at most");
  });
});

describe("agentry chat's system prompt flags", () => {
  it("--append-system-prompt and --system-prompt shape the prompt; the instruction files follow either", async () => {
    const ws = await makeWorkspace({ "AGENTS.md": "MARK-AGENTS\n" });
    server = await startModelServer({ text: "ok" });
    const env = { ...ws.env, ...providerEnv(server, "anthropic") };
    const appended = await runCli(["chat", "--append-system-prompt", "MARK-APPENDED"], {
      cwd: ws.dir,
      env,
      input: "hi\n",
    });
    expect(appended.code, appended.stderr).toBe(0);
    const replaced = await runCli(["chat", "--system-prompt", "MARK-REPLACED"], {
      cwd: ws.dir,
      env,
      input: "hi\n",
    });
    expect(replaced.code, replaced.stderr).toBe(0);

    const [first, second] = server.requests.map(systemOf);
    expect(first).toContain("You are agentry");
    expectInOrder(first ?? "", ["You are agentry", "MARK-APPENDED", "MARK-AGENTS"]);
    expect(second).not.toContain("You are agentry");
    expectInOrder(second ?? "", ["MARK-REPLACED", "MARK-AGENTS"]);
  });
});
