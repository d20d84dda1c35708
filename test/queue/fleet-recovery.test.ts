import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { jobKeys } from "../../src/queue/fleet-keys.ts";
import { keepResult } from "../../src/queue/job-data.ts";
import { FleetClient } from "../../src/queue/parent/fleet-client.ts";
import { finished } from "../cli/support/cli-process.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { type FleetWorker, fleetHarness, overlapped } from "./support/fleet-harness.ts";

// What a fleet does when its parts fail, with real processes (test/queue/support/fleet-harness.ts).
// Every bound below only catches a hang; no assertion decides by elapsed time.

describeWith(REDIS, "a fleet recovers: a lost lock, a kept result, a killed parent", () => {
  const fleet = fleetHarness();

  it("a worker paused past its lock (SIGSTOP) stops its child when it resumes: one run at a time, its tool once, its result delivered", async () => {
    await fleet.setUp();
    const runs = join(fleet.ws.dir, "runs.txt");
    const tool = { toolCalls: [{ name: "bash", args: { command: `echo ran >> ${runs}` } }] };
    let victim: FleetWorker | undefined;
    fleet.child = async (prompt, call, texts) => {
      if (call === 1) {
        // Paused while its model call is answered: the answer waits in its socket, its lock runs out.
        await fleet.waitFor(
          () => fleet.workers.some((w) => w.log().includes("started (attempt 1)")),
          10_000,
          "a start",
        );
        victim = fleet.workers.find((w) => w.log().includes("started (attempt 1)"));
        victim?.process.kill("SIGSTOP");
        return { ...tool, delayMs: 200 };
      }
      return texts.length === 1 ? tool : { text: `answer to ${prompt}` };
    };
    await fleet.startWorker("a", "--allow-bypass");
    await fleet.startWorker("b", "--allow-bypass");
    const run = finished(fleet.parent("delegate 1 as paused"));

    // The other worker took the job once the lock ran out; then the paused one resumes.
    await fleet.waitFor(
      () => (fleet.calls.get("paused-0") ?? 0) >= 2,
      30_000,
      "the job to start again elsewhere",
    );
    victim?.process.kill("SIGCONT");
    const result = await run;
    await fleet.waitFor(
      () => victim?.log().includes("stopped here") === true,
      20_000,
      "the paused worker to stop",
    );

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("answer to paused-0");
    // Its first call (answered while it was paused), then the other worker's two: never two at once,
    // and the paused one asked nothing more once it resumed. (On a machine loaded enough that the first
    // worker lost its 2 s lock before it even asked, the other worker made all the calls: two.)
    const asked = fleet.requestsOf("paused-0");
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(asked.length).toBeLessThanOrEqual(3);
    expect(overlapped(asked)).toBe(false);
    expect((await readFile(runs, "utf8")).trim().split("\n")).toEqual(["ran"]);
    expect(victim?.log()).toMatch(/stopped here: its worker did not renew the job's lock within 2000 ms/);
    expect(victim?.log()).not.toMatch(/paused-0 completed/);
    const [record] = await fleet.records();
    expect(record).toMatchObject({ status: "COMPLETED" });
  }, 90_000);

  for (const attempts of [2, 1]) {
    it(`a result its worker kept before it died is delivered and never run again (--attempts ${attempts}${attempts === 1 ? ": the job itself fails as stalled" : ""})`, async () => {
      await fleet.setUp();
      const observer = await FleetClient.open({ url: fleet.redis.url, queue: fleet.queue });
      let kept: Promise<boolean> | undefined;
      fleet.child = async (prompt) => {
        // Its worker produced its answer and kept it under the job's lock (as `takeJob` does); then
        // it dies before BullMQ records the job's end.
        kept ??= (async () => {
          const [job] = await observer.queue.getActive();
          const jobId = job?.id ?? "";
          const lock = observer.queue.toKey(`${jobId}:lock`);
          const token = (await observer.commands.get(lock)) ?? "";
          return keepResult(observer.commands, { lock, result: jobKeys(fleet.queue, jobId).result }, token, {
            v: 2,
            outcome: {
              status: "completed",
              text: `kept answer to ${prompt}`,
              turns: 1,
              usage: usage(),
              durationMs: 5,
              sessionId: "x",
            },
            messages: [assistantText(`kept answer to ${prompt}`)],
            unread: [],
            worker: "a",
          });
        })();
        return { text: "never delivered", delayMs: 60_000 };
      };
      try {
        const first = await fleet.startWorker("a", "--attempts", String(attempts));
        const run = finished(fleet.parent(`delegate 1 as kept${attempts}`));
        await fleet.waitFor(() => kept !== undefined, 20_000, "the child's model call");
        expect(await kept).toBe(true);
        first.process.kill("SIGKILL");
        const second = await fleet.startWorker("b", "--attempts", String(attempts));
        const result = await run;

        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain(`kept answer to kept${attempts}-0`);
        expect(fleet.requestsOf(`kept${attempts}-0`)).toHaveLength(1);
        if (attempts === 2)
          expect(second.log()).toContain("completed with the result an earlier attempt kept");
        else expect(second.log()).toContain("stalled more than allowable limit");
        const [record] = await fleet.records();
        expect(record).toMatchObject({ status: "COMPLETED", result: `kept answer to kept${attempts}-0` });
      } finally {
        await observer.close();
      }
    }, 90_000);
  }

  it("kill -9 of the parent, then --resume: its queued children are followed by their jobs and delivered, none FAILED or run again", async () => {
    await fleet.setUp();
    let parentDied = false;
    // The children answer once their parent is gone: their results outlive it.
    fleet.child = async (prompt) => {
      await fleet.waitFor(() => parentDied, 30_000, "the parent to be killed");
      return { text: `answer to ${prompt}` };
    };
    await fleet.startWorker("a", "--concurrency", "4");
    const first = fleet.parent("delegate 3 as bg in background", "--output-format", "stream-json");
    let out = "";
    first.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    const exited = finished(first).then((result) => {
      parentDied = true;
      return result;
    });
    await fleet.waitFor(
      () => ["bg-0", "bg-1", "bg-2"].every((p) => fleet.calls.has(p)),
      30_000,
      "the three children",
    );
    first.kill("SIGKILL");
    await exited;
    const sessionId = (JSON.parse(out.split("\n")[0] ?? "{}") as { sessionId?: string }).sessionId ?? "";

    const resumed = await finished(fleet.parent("what came back?", "--resume", sessionId));

    expect(resumed.code, resumed.stderr).toBe(0);
    for (const index of [0, 1, 2]) {
      expect(resumed.stdout).toContain(`answer to bg-${index}`);
      expect(fleet.requestsOf(`bg-${index}`)).toHaveLength(1);
    }
    expect(resumed.stderr).toMatch(
      /following 3 tasks that outlived the process that started them: sub-\S+ \(job \S+ on queue/,
    );
    const after = await fleet.records();
    expect(after.map((record) => record.status)).toEqual(["COMPLETED", "COMPLETED", "COMPLETED"]);
  }, 90_000);
});

function usage() {
  return { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };
}

function assistantText(text: string) {
  return {
    role: "assistant" as const,
    content: [{ type: "text" as const, text }],
    stopReason: "stop" as const,
    usage: usage(),
    model: "anthropic:claude-sonnet-4-5",
  };
}
