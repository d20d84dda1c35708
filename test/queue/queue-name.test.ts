import { expect, it } from "vitest";
import { queueNameProblem } from "../../src/queue/fleet-keys.ts";
import { makeWorkspace, runCli } from "../cli/support/cli-process.ts";

// Issue 25: `agentry run --queue redis://…` (the server where the queue's name goes) crashed with a
// BullMQ stack trace. A queue's name is a name; anything else is refused before anything connects.

it("run and worker refuse a URL where the queue's name goes, saying where each goes, before connecting", async () => {
  const ws = await makeWorkspace();
  // Nothing listens there: a refusal that connected first would say it cannot reach it.
  const env = { ...ws.env, AGENTRY_REDIS_URL: "redis://127.0.0.1:1/0", ANTHROPIC_API_KEY: "k" };

  for (const args of [
    ["run", "--queue", "redis://fleet:6379/0", "do it"],
    ["worker", "--queue", "redis://fleet:6379/0"],
  ]) {
    const result = await runCli(args, { cwd: ws.dir, env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `--queue "redis://fleet:6379/0" is not a queue's name: it is a URL, not a name. The fleet's Redis goes to --store (agentry worker: --redis) or AGENTRY_REDIS_URL, the queue's name to --queue`,
    );
    expect(result.stderr).not.toMatch(/unexpected error|at .*\(.*:\d+:\d+\)|Cannot reach Redis/);
  }
});

it("a queue's name is letters, digits, '.', '_' and '-'", () => {
  expect(queueNameProblem("agentry")).toBeUndefined();
  expect(queueNameProblem("team-a.v2_x")).toBeUndefined();
  expect(queueNameProblem("redis://h:6379/0")).toBe("it is a URL, not a name");
  expect(queueNameProblem("a:b")).toContain("letters, digits");
  expect(queueNameProblem("-x")).toContain("letters, digits");
  expect(queueNameProblem("")).toContain("letters, digits");
});
