import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Session } from "../../src/agent/session/session.ts";
import { userText } from "../../src/model/messages.ts";
import type { TaskStore } from "../../src/tasks/task-store.ts";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import { serveUi, type UiServer } from "../../src/ui/ui-server.ts";
import { describeWith, REDIS } from "../support/components.ts";
import { redisStoresPerTest } from "../support/redis-stores.ts";
import { tempDir } from "../support/temp-dir.ts";
import { newTask } from "../tasks/task-store.conformance.ts";
import { follow } from "./support/ui-client.ts";

const TOKEN = "test-token-0123456789abcdef";
const bearer = { authorization: `Bearer ${TOKEN}` };
const json = { ...bearer, "content-type": "application/json" };

let server: UiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(store: TaskStore, workspace: string): Promise<UiServer> {
  server = await serveUi({ store, workspace, host: "127.0.0.1", port: 0, token: TOKEN, log: () => {} });
  return server;
}

async function workspaceUi() {
  const workspace = await tempDir("agentry-ui-");
  await mkdir(join(workspace, ".agentry/agents"), { recursive: true });
  const store = new WorkspaceTaskStore({ workspace });
  // Another process's store on the same workspace: its writes reach the page through the watch.
  const other = new WorkspaceTaskStore({ workspace });
  return { workspace, store, other, ui: await start(store, workspace) };
}

describe("agentry ui's server", () => {
  it("refuses every request without the token, and hands the page a cookie from ?token= once", async () => {
    const { ui } = await workspaceUi();
    for (const path of ["/", "/app.js", "/events", "/api/tasks", "/api/transcripts/x"])
      expect((await fetch(`${ui.url}${path}`)).status).toBe(401);
    expect(
      (await fetch(`${ui.url}/`, { headers: { authorization: "Bearer wrong-token-0123456789abc" } })).status,
    ).toBe(401);
    expect((await fetch(`${ui.url}/?token=wrong`, { redirect: "manual" })).status).toBe(401);
    const cancel = await fetch(`${ui.url}/api/tasks/t1/cancel`, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    expect(cancel.status).toBe(401);

    const first = await fetch(ui.openUrl, { redirect: "manual" });
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("/");
    const cookie = first.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const page = await fetch(`${ui.url}/`, { headers: { cookie: cookie.split(";")[0] ?? "" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>agentry ui</title>");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
  });

  it("sends the tree, then each change another process makes to a record", async () => {
    const { store, other, ui } = await workspaceUi();
    await store.create(
      newTask("t1", { status: "RUNNING", parentSessionId: "run-1", agentPath: ["main", "explore-1"] }),
    );
    const page = await follow(ui.url, TOKEN);
    try {
      await page.until((rows) => rows.get("run-1/explore-1")?.status === "running");
      expect(page.order).toEqual(["run-1", "run-1/explore-1"]);

      await other.create(
        newTask("t2", { status: "PENDING", parentSessionId: "run-1", agentPath: ["main", "review-1"] }),
      );
      await page.until((rows) => rows.get("run-1/review-1")?.status === "queued");
      await other.update("t1", {
        activity: { turns: 2, tokensIn: 1500, tokensOut: 100, tools: [{ name: "bash", arg: "npm test" }] },
      });
      await page.until((rows) => rows.get("run-1/explore-1")?.activity === "bash npm test");
      expect(page.rows.get("run-1/explore-1")).toMatchObject({
        turns: 2,
        tokens: "1.6k",
        runsAt: expect.stringMatching(/^local/),
      });
      await other.update("t1", { status: "COMPLETED", result: "done" });
      await page.until((rows) => rows.get("run-1/explore-1")?.status === "completed");
      expect(page.rows.get("run-1")?.totals).toBe(
        "3 agents (1 running, 1 queued, 1 done) · 1.5k tokens in / 100 out",
      );
    } finally {
      page.close();
    }
  });

  it("cancels and messages a task through the store, and says why it cannot", async () => {
    const { store, ui } = await workspaceUi();
    await store.create(newTask("t1", { status: "RUNNING" }));
    await store.create(newTask("done", { status: "COMPLETED" }));
    const post = (path: string, body: unknown, headers: Record<string, string> = json) =>
      fetch(`${ui.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });

    const sent = await post("/api/tasks/t1/message", { text: "also look at b.ts" });
    expect(sent.status).toBe(202);
    const { messageId } = (await sent.json()) as { messageId: string };
    expect((await store.get("t1"))?.inbox).toEqual([
      { id: messageId, text: "also look at b.ts", at: expect.any(String) },
    ]);

    expect((await post("/api/tasks/t1/cancel", {})).status).toBe(202);
    expect((await store.get("t1"))?.cancelRequested).toBe(true);

    const refused = await post("/api/tasks/done/message", { text: "hello" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: "Task done has finished (COMPLETED): it reads no more messages.",
    });
    expect((await post("/api/tasks/done/cancel", {})).status).toBe(409);
    expect((await post("/api/tasks/nope/cancel", {})).status).toBe(404);
    expect((await post("/api/tasks/t1/message", { text: " " })).status).toBe(400);
    expect((await post("/api/tasks/t1/message", { text: "x".repeat(20_001) })).status).toBe(400);
    expect((await post("/api/tasks/t1/cancel", {}, bearer)).status).toBe(415);
    expect((await post("/api/tasks/%E0%A4%A/cancel", {})).status).toBe(404);
    expect((await post("/api/tasks/t1/message", { text: "x".repeat(70_000) })).status).toBe(413);
  });

  it("serves a session's transcript, and says why it has none", async () => {
    const { workspace, ui } = await workspaceUi();
    const session = await Session.create({
      workspace,
      agentName: "explore",
      model: "anthropic:claude-haiku-4-5",
    });
    await session.append(userText("What does a.ts do?"));
    const found = await fetch(`${ui.url}/api/transcripts/${session.id}`, { headers: bearer });
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({
      agentName: "explore",
      items: [{ kind: "user", text: "What does a.ts do?" }],
    });
    expect((await fetch(`${ui.url}/api/transcripts/sub-nope`, { headers: bearer })).status).toBe(404);
    expect((await fetch(`${ui.url}/api/transcripts/..%2Fx`, { headers: bearer })).status).toBe(400);
  });
});

describeWith(REDIS, "agentry ui's server on the fleet's store", () => {
  const redis = redisStoresPerTest();

  it("follows records that another machine's process writes to Redis", async () => {
    const [store, other] = [await redis.open(), await redis.open()];
    const ui = await start(store, await tempDir("agentry-ui-"));
    const page = await follow(ui.url, TOKEN);
    try {
      await other.create(
        newTask("q1", {
          status: "RUNNING",
          agentPath: ["main", "general-purpose-1"],
          ref: { kind: "queue", queue: "agentry", jobId: "7" },
        }),
      );
      await page.until(
        (rows) => rows.get("s1/general-purpose-1")?.runsAt === "worker (queue agentry, job 7)",
      );
      await other.requestCancel("q1");
      await page.until((rows) => rows.get("s1/general-purpose-1")?.cancelRequested === true);
    } finally {
      page.close();
    }
  });
});
