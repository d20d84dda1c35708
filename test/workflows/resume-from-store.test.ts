import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { finished, makeWorkspace, spawnCli, type TestWorkspace } from "../cli/support/cli-process.ts";
import { providerEnv } from "../cli/support/provider-env.ts";
import { wireMessages, wireTexts } from "../subagents/support/subagent-harness.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import { waitFor } from "../support/processes.ts";
import { type RedisServer, startRedisServer } from "../support/redis-server.ts";

// Issue 25: a workflow's replay journal is kept with its run's record in the fleet's store, so
// `agentry workflow run --resume` works from any machine with `--store` — here a second folder, which
// has neither the script nor the first machine's `.agentry/`.

const SCRIPT = `export const meta = { name: "steps", description: "fan out, then one more" };
const [x, y] = await parallel([() => agent("P1"), () => agent("P2")]);
return [x, y, await agent("LAST after " + [x, y].join(" "))];
`;

const promptOf = (request: RecordedRequest) => wireTexts(wireMessages(request.body)[0]!)[0] ?? "";

describeWith(REDIS, "a workflow run resumed from another machine", () => {
  let redis: RedisServer | undefined;
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    await redis?.stop();
  });

  it("the journal is in the store: the run resumes in another folder, finished calls replayed without a request", async () => {
    redis = await startRedisServer();
    let hang = true;
    server = await startModelServer((request) => {
      const prompt = promptOf(request);
      return {
        text: `done ${prompt.split(" ")[0]}`,
        ...(hang && prompt === "P2" ? { delayMs: 60_000 } : {}),
      };
    });
    const machine = async (): Promise<{ ws: TestWorkspace; env: Record<string, string> }> => {
      const ws = await makeWorkspace();
      return { ws, env: { ...ws.env, ...providerEnv(server!, "anthropic") } };
    };
    const a = await machine();
    await writeFile(join(a.ws.dir, "steps.js"), SCRIPT);
    const first = spawnCli(
      ["workflow", "run", "steps.js", "--store", redis.url, "--permission-mode", "bypass"],
      {
        cwd: a.ws.dir,
        env: a.env,
      },
    );
    let stderr = "";
    first.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = finished(first);
    await waitFor(() => /run (wf-\S+)/.test(stderr), 20_000, "the run's id");
    const runId = /run (wf-\S+)/.exec(stderr)?.[1] ?? "";
    const reader = new Redis(redis.url);
    const results = async () =>
      (await reader.lrange(`agentry:journal:${runId}`, 0, -1)).filter((line) =>
        line.includes('"type":"result"'),
      );
    // Killed once P1's result is stored and P2 waits for its answer.
    await waitFor(async () => (await results()).length === 1, 20_000, "P1's result in the store");
    first.kill("SIGKILL");
    await exited;

    hang = false;
    const before = server.requests.length;
    const b = await machine();
    const resumed = await finished(
      spawnCli(["workflow", "run", "--resume", runId, "--store", redis.url, "--permission-mode", "bypass"], {
        cwd: b.ws.dir,
        env: b.env,
      }),
    );
    await reader.quit();

    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("done LAST");
    expect(server.requests.slice(before).map(promptOf)).toEqual(["P2", "LAST after done P1 done P2"]);
  }, 60_000);
});
