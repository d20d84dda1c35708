import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";

// A transcript that cannot be read (empty, a bad header, a newer format) is the user's data: every
// command that meets it says what is wrong with which file and exits 2, nothing prints a stack, the
// file is left as it is, and `sessions list` shows it as damaged instead of hiding it.

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  await ws?.cleanup();
  server = undefined;
  ws = undefined;
});

const header = (version: number) =>
  `${JSON.stringify({ type: "header", version, sessionId: "x", agentName: "main", model: "anthropic:claude-sonnet-4-5", cwd: "/", createdAt: "2025-01-01T00:00:00.000Z" })}\n`;

const DAMAGED: Array<[string, string, RegExp]> = [
  ["20250101-000000-empty0", "", /is empty/],
  [
    "20250101-000000-badhdr",
    '{"type":"message"}\n',
    /not an agentry transcript: its first line is not a header/,
  ],
  ["20250101-000000-newer0", header(99), /format v99.*upgrade agentry/],
];

describe("damaged transcripts", () => {
  it.each(DAMAGED)(
    "%s: --resume, chat --resume and sessions show exit 2 with the reason",
    async (id, text, why) => {
      ws = await makeWorkspace();
      server = await startModelServer({ text: "unused" });
      const env = { ...ws.env, ...providerEnv(server, "anthropic") };
      const path = join(ws.dir, ".agentry", "sessions", `${id}.jsonl`);
      await mkdir(join(ws.dir, ".agentry", "sessions"), { recursive: true });
      await writeFile(path, text);

      for (const args of [
        ["run", "--resume", id, "go on"],
        ["chat", "--resume", id],
        ["sessions", "show", id],
      ]) {
        const result = await runCli(args, { cwd: ws.dir, env, input: "go on\n" });
        expect(result.code, args.join(" ")).toBe(2);
        expect(result.stderr).toContain(`Session "${id}" cannot be read`);
        expect(result.stderr).toContain(path);
        expect(result.stderr).toMatch(why);
        expect(result.stderr).not.toContain("unexpected error");
        expect(result.stderr).not.toMatch(/\n\s+at /);
      }
      expect(server.requests).toHaveLength(0);
      expect(await readFile(path, "utf8")).toBe(text);
    },
  );

  it("sessions list shows damaged files next to the readable sessions, as a table and as JSON", async () => {
    ws = await makeWorkspace();
    server = await startModelServer({ text: "fine" });
    const env = { ...ws.env, ...providerEnv(server, "anthropic") };
    const run = await runCli(["run", "--output-format", "json", "a good one"], { cwd: ws.dir, env });
    const { sessionId } = JSON.parse(run.stdout) as { sessionId: string };
    for (const [id, text] of DAMAGED)
      await writeFile(join(ws.dir, ".agentry", "sessions", `${id}.jsonl`), text);

    const table = await runCli(["sessions", "list"], { cwd: ws.dir, env });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(sessionId);
    for (const [id, , why] of DAMAGED) {
      const row = table.stdout.split("\n").find((line) => line.startsWith(id)) ?? "";
      expect(row).toContain("damaged");
      expect(row).toMatch(why);
    }

    const json = await runCli(["sessions", "list", "--json"], { cwd: ws.dir, env });
    const listed = JSON.parse(json.stdout) as Array<{ id: string; damaged?: string }>;
    expect(listed.map((s) => s.id).sort()).toEqual([sessionId, ...DAMAGED.map(([id]) => id)].sort());
    expect(listed.find((s) => s.id === "20250101-000000-empty0")?.damaged).toMatch(/is empty/);
    expect(listed.find((s) => s.id === sessionId)?.damaged).toBeUndefined();
  });
});
