import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { finished } from "../cli/support/cli-process.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { fleetHarness, overlapped } from "./support/fleet-harness.ts";

// What a fleet does when its parts fail, with real processes (test/queue/support/fleet-harness.ts).
// Every bound below only catches a hang; no assertion decides by elapsed time.

describeWith(REDIS, "a fleet recovers: a Redis restart", () => {
  const fleet = fleetHarness();

  it("Redis restarted with its data kept (appendonly): the parent rides it out and every child's result arrives", async () => {
    await fleet.setUp({ appendonly: true });
    fleet.child = (prompt) => ({ text: `answer to ${prompt}`, delayMs: 1_500 });
    await fleet.startWorker("a", "--concurrency", "2");
    const run = fleet.parent("delegate 2 as aof");
    let stderr = "";
    run.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = finished(run);
    await fleet.waitFor(
      () => fleet.calls.has("aof-0") && fleet.calls.has("aof-1"),
      20_000,
      "both children's model calls",
    );
    // Down longer than the workers' locks and the old 5 s rule; up again with everything it had.
    await fleet.redis.stop();
    await sleep(6_000);
    await fleet.redis.restart();
    const result = await exited;

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("answer to aof-0");
    expect(result.stdout).toContain("answer to aof-1");
    expect(stderr).toMatch(
      /lost the connection to Redis at redis:\/\/\S+: 2 queued children wait for it to come back \(up to 1m; fleet\.lostAfterMs\)/,
    );
    expect(stderr).toMatch(/Redis at redis:\/\/\S+ is back after/);
    expect((await fleet.records()).map((record) => record.status)).toEqual(["COMPLETED", "COMPLETED"]);
    // A child whose worker lost its lock while Redis was down ran again after it: never at once.
    expect(overlapped(fleet.requestsOf("aof-0"))).toBe(false);
    expect(overlapped(fleet.requestsOf("aof-1"))).toBe(false);
  }, 90_000);

  it("Redis restarted without its data: the parent says its job is gone instead of waiting for it", async () => {
    await fleet.setUp();
    fleet.child = () => ({ text: "never delivered", delayMs: 60_000 });
    await fleet.startWorker("a");
    const run = finished(fleet.parent("delegate 1 as forgotten"));
    await fleet.waitFor(() => fleet.calls.has("forgotten-0"), 20_000, "the child's model call");
    await fleet.redis.restart();
    const result = await run;

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /Redis at redis:\/\/\S+ came back without its job \S+: it kept none of the fleet's data across its restart/,
    );
  }, 90_000);
});
