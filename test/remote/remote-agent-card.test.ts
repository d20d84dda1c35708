import { afterEach, describe, expect, it } from "vitest";
import type { ChildExecutor } from "../../src/subagents/run/executor.ts";
import { remoteExecutor } from "../support/a2a-client.ts";
import { startA2aServer, type TestA2aServer } from "../support/a2a-server.ts";
import { startA2aServerV03 } from "../support/a2a-server-v03.ts";

/**
 * A remote agent's card is read once per run: every call of every child that speaks to the agent uses
 * it. A card that could not be fetched is not remembered, so the next child tries again.
 */
const servers: TestA2aServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function run(executor: ChildExecutor, prompt: string) {
  return executor.start({ prompt, messages: [], signal: new AbortController().signal, emit: () => {} }).done;
}

describe("a remote agent's card", () => {
  it.each([
    ["v1.0 streaming", startA2aServer, true],
    ["v1.0 without streaming", startA2aServer, false],
    ["v0.3 streaming", startA2aServerV03, true],
    ["v0.3 without streaming", startA2aServerV03, false],
  ])("is fetched once for a task and its follow-up (%s)", async (_, start, streaming) => {
    const server = await start([{ reply: "one" }, { reply: "two" }], { streaming });
    servers.push(server);
    const executor = remoteExecutor(server.url);

    expect((await run(executor, "first")).outcome).toMatchObject({ status: "completed", text: "one" });
    expect(server.cardRequests).toHaveLength(1);
    expect((await run(executor, "second")).outcome).toMatchObject({ status: "completed", text: "two" });
    expect(server.cardRequests).toHaveLength(1);
  });

  it("that failed to arrive is fetched again by the next task, which then runs", async () => {
    const server = await startA2aServer([{ reply: "up now" }], { cardFailures: 1 });
    servers.push(server);
    const executor = remoteExecutor(server.url);

    const failed = (await run(executor, "too early")).outcome;
    expect(failed.status).toBe("error");
    expect(failed.status === "error" && failed.error).toContain(server.url);
    expect(server.messages).toHaveLength(0);

    expect((await run(executor, "again")).outcome).toMatchObject({ status: "completed", text: "up now" });
    expect(server.cardRequests).toHaveLength(2);
    expect(server.messages.map((message) => message.text)).toEqual(["again"]);
  });
});
