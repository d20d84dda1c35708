import { expect, it } from "vitest";
import { finished } from "../cli/support/cli-process.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { fleetHarness } from "./support/fleet-harness.ts";

// What a fleet does when its parts fail, with real processes (test/queue/support/fleet-harness.ts).
// Every bound below only catches a hang; no assertion decides by elapsed time.

describeWith(REDIS, "a fleet recovers: no worker left", () => {
  const fleet = fleetHarness();

  it("the last worker killed mid-child: the parent says no worker is left at once and, with none back within its bound, fails the child saying why", async () => {
    await fleet.setUp();
    await fleet.ws.userConfig({ fleet: { noWorkerTimeoutMs: 4_000 } });
    fleet.child = () => ({ text: "never delivered", delayMs: 60_000 });
    const only = await fleet.startWorker("a");
    const run = fleet.parent("delegate 1 as orphan");
    let stderr = "";
    run.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = finished(run);
    await fleet.waitFor(() => fleet.calls.has("orphan-0"), 20_000, "the child's model call");
    only.process.kill("SIGKILL");
    await fleet.waitFor(() => stderr.includes("no worker is taking jobs"), 30_000, "the parent to say so");
    const result = await exited;

    expect(result.code, result.stderr).toBe(0);
    expect(stderr).toMatch(
      new RegExp(
        `no worker is taking jobs from queue "${fleet.queue}" at redis://127\\.0\\.0\\.1:\\d+/0: 1 queued child waits for one \\(start one with \`agentry worker --redis [^\`]+ --queue ${fleet.queue}\`\\); they fail if none comes within 4\\.0s`,
      ),
    );
    expect(result.stdout).toContain(`no worker took jobs from queue "${fleet.queue}"`);
    const [record] = await fleet.records();
    expect(record).toMatchObject({ status: "FAILED" });
    expect(record?.error).toContain("no worker took jobs");
  }, 90_000);

  it("the last worker killed mid-child, then a new one: the parent says both, and the child's result arrives", async () => {
    await fleet.setUp();
    let stderr = "";
    const back = `a worker takes jobs from queue "${fleet.queue}" again: 1 queued child goes on`;
    // Its second run answers once the parent has said the new worker is there.
    fleet.child = async (prompt, call) => {
      if (call === 1) return { text: "never delivered", delayMs: 60_000 };
      await fleet.waitFor(() => stderr.includes(back), 30_000, "the parent to see the new worker");
      return { text: `answer to ${prompt}` };
    };
    const only = await fleet.startWorker("a");
    const run = fleet.parent("delegate 1 as rescued");
    run.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exited = finished(run);
    await fleet.waitFor(() => fleet.calls.has("rescued-0"), 20_000, "the child's model call");
    only.process.kill("SIGKILL");
    await fleet.waitFor(() => stderr.includes("no worker is taking jobs"), 30_000, "the parent to say so");
    await fleet.startWorker("b");
    const result = await exited;

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("answer to rescued-0");
    expect(stderr, stderr).toContain(back);
    const [record] = await fleet.records();
    expect(record).toMatchObject({ status: "COMPLETED" });
  }, 90_000);
});
