import { afterEach, describe, expect, it } from "vitest";
import { type ModelServer, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { bodyText, type Protocol, providerEnv } from "../support/provider-env.ts";

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  ws = undefined;
});

describe.each<Protocol>(["anthropic", "openai"])(
  "agentry run completes a multi-turn task (%s protocol)",
  (protocol) => {
    it("reads, edits, runs bash and answers", async () => {
      ws = await makeWorkspace({
        "src/greet.js": 'export const greeting = "hello";\n',
        "notes.txt": "note\n",
      });
      server = await startModelServer([
        // Two calls in one message; arguments stream in chunks.
        {
          text: "Let me look.",
          toolCalls: [
            { name: "read", args: { path: "src/greet.js" } },
            { name: "list", args: {} },
          ],
        },
        {
          toolCalls: [
            { name: "edit", args: { path: "src/greet.js", old_string: '"hello"', new_string: '"hi there"' } },
          ],
        },
        { toolCalls: [{ name: "bash", args: { command: "cat src/greet.js && echo exit-ok" } }] },
        {
          text: "Changed the greeting to **hi there**; the file now reads as expected.",
          usage: { input: 50, output: 12 },
        },
      ]);
      const result = await runCli(
        ["run", "--permission-mode", "bypass", "Change the greeting to 'hi there'"],
        {
          cwd: ws.dir,
          env: { ...ws.env, ...providerEnv(server, protocol) },
        },
      );

      expect(result.stderr).not.toContain("error");
      expect(result.code).toBe(0);
      expect(await ws.read("src/greet.js")).toBe('export const greeting = "hi there";\n');
      expect(server.requests).toHaveLength(4);
      expect(server.requests.every((r) => r.protocol === protocol)).toBe(true);
      // The model saw the prompt, both results of the parallel calls, and the bash output.
      expect(bodyText(server, 0)).toContain("Change the greeting");
      expect(bodyText(server, 1)).toContain("export const greeting");
      expect(bodyText(server, 1)).toContain("notes.txt");
      expect(bodyText(server, 3)).toContain("hi there");
      expect(bodyText(server, 3)).toContain("exit-ok");
      // Piped, stdout is the run's answer alone (not "Let me look." of the first message); tool
      // activity is on stderr.
      expect(result.stdout).toBe("Changed the greeting to **hi there**; the file now reads as expected.\n");
      expect(result.stderr).toMatch(/● read {2}src\/greet\.js/);
      expect(result.stderr).toMatch(/● edit {2}src\/greet\.js/);
      expect(result.stderr).toMatch(/● bash {2}cat src\/greet\.js && echo exit-ok {2}✓/);
    });
  },
);
