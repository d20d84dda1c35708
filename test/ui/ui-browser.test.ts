import type { ChildProcess } from "node:child_process";
import type { BrowserContext, Page } from "playwright-core";
import { afterEach, expect, it } from "vitest";
import { WorkspaceTaskStore } from "../../src/tasks/workspace/workspace-task-store.ts";
import {
  type CliResult,
  finished,
  makeWorkspace,
  spawnCli,
  type TestWorkspace,
} from "../cli/support/cli-process.ts";
import { providerEnv } from "../cli/support/provider-env.ts";
import { wireMessages, wireTexts } from "../subagents/support/subagent-harness.ts";
import { CHROMIUM, describeWith } from "../support/components.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import { waitFor } from "../support/processes.ts";
import { openBrowser } from "./support/browser.ts";

// The web view in a real browser (Debian's chromium, driven by playwright-core), over a real
// `agentry run` with two background children and a real `agentry ui` in another process: the tree
// appears and follows the run, a transcript opens, a message from the page reaches a child's next
// turn, a cancel from the page ends the other child, and without the token there is no page.

const TOKEN = "browser-test-token-0123456789";
/** Bounds that only catch a hang: waits end on the event they wait for. */
const HANG_MS = 60_000;

let ws: TestWorkspace | undefined;
let server: ModelServer | undefined;
let run: ChildProcess | undefined;
let ui: ChildProcess | undefined;
let browser: BrowserContext | undefined;
afterEach(async () => {
  await browser?.close();
  run?.kill("SIGKILL");
  ui?.kill("SIGKILL");
  await server?.close();
  browser = undefined;
  run = undefined;
  ui = undefined;
  server = undefined;
  ws = undefined;
});

const texts = (request: RecordedRequest) => wireMessages(request.body).flatMap(wireTexts);

/** The root starts a slow child (to be cancelled) and a chatty one (works until the page writes to it). */
function script(request: RecordedRequest) {
  const all = texts(request);
  if (all[0] === "SLOW") return { toolCalls: [{ name: "bash", args: { command: "sleep 120" } }] };
  if (all[0] === "CHATTY")
    return all.some((text) => text.includes("PING FROM PAGE"))
      ? { text: "pong: the page spoke to me" }
      : { toolCalls: [{ name: "bash", args: { command: "sleep 0.3" } }] };
  if (all.at(-1) === "start")
    return {
      toolCalls: [
        { name: "task", args: { description: "Slow job", prompt: "SLOW", run_in_background: true } },
        { name: "task", args: { description: "Chatty job", prompt: "CHATTY", run_in_background: true } },
      ],
    };
  return { text: "Noted." };
}

/** Starts `agentry ui` on the workspace and resolves to the address it printed (with the token). */
function startUi(workspace: TestWorkspace): Promise<string> {
  ui = spawnCli(["ui", "--port", "0", "--cwd", workspace.dir], {
    cwd: workspace.dir,
    env: { ...workspace.env, AGENTRY_UI_TOKEN: TOKEN },
  });
  const exited = finished(ui);
  return new Promise((resolve, reject) => {
    let out = "";
    ui!.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^(http:\/\/\S+\?token=\S+)$/m.exec(out)?.[1];
      if (line) resolve(line);
    });
    void exited.then((result) => reject(new Error(`agentry ui exited early: ${result.stderr}`)));
  });
}

/** The row of the task started with `description`. */
const row = (page: Page, description: string) => page.locator(`.row:has(.name[title="${description}"])`);

describeWith(CHROMIUM, "agentry ui in a browser", () => {
  it("shows the run's tree live, opens a transcript, messages one child and cancels the other", async () => {
    ws = await makeWorkspace({});
    server = await startModelServer(script);
    run = spawnCli(["run", "--permission-mode", "bypass", "start"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
    });
    const runExit: Promise<CliResult> = finished(run);
    const openUrl = await startUi(ws);
    const base = openUrl.replace(/\/\?token=.*$/, "");
    browser = await openBrowser();
    const page = await browser.newPage();

    // Without the token: no page.
    const refused = await page.goto(`${base}/`);
    expect(refused?.status()).toBe(401);
    expect(await page.textContent("body")).toContain("agentry ui needs its token");

    // With it (once, in the address): the tree appears, both children running.
    await page.goto(openUrl);
    expect(page.url()).toBe(`${base}/`);
    const slow = row(page, "Slow job");
    const chatty = row(page, "Chatty job");
    await slow.locator(".activity", { hasText: "bash sleep 120" }).waitFor({ timeout: HANG_MS });
    await chatty.and(page.locator('[data-status="running"]')).waitFor({ timeout: HANG_MS });
    expect(await page.locator(".row.run .name").first().textContent()).toContain("main");
    expect(await slow.locator(".where").textContent()).toMatch(/^local \(/);

    // It follows the run: the chatty child's turns go up while the page stays open.
    const turnsNow = Number(await chatty.locator(".turns").textContent());
    await waitFor(
      async () => Number(await chatty.locator(".turns").textContent()) > turnsNow,
      HANG_MS,
      "more turns",
    );

    // Its transcript opens beside the tree.
    await chatty.locator("button.open-transcript").click();
    await page
      .locator('#transcript li[data-kind="user"]', { hasText: "CHATTY" })
      .waitFor({ timeout: HANG_MS });
    await page
      .locator("#transcript .calls", { hasText: "bash sleep 0.3" })
      .first()
      .waitFor({ timeout: HANG_MS });

    // A message from the page reaches its next turn: it answers and finishes.
    await page.fill("#message-text", "PING FROM PAGE");
    await page.click('#message-form button[type="submit"]');
    await page.locator("#message-status", { hasText: "sent" }).waitFor({ timeout: HANG_MS });
    await chatty.and(page.locator('[data-status="completed"]')).waitFor({ timeout: HANG_MS });

    // A cancel from the page ends the slow one.
    await slow.locator("button.cancel").click();
    await slow.and(page.locator('[data-status="aborted"]')).waitFor({ timeout: HANG_MS });

    const records = await new WorkspaceTaskStore({ workspace: ws.dir }).list();
    const byDescription = new Map(records.map((record) => [record.description, record]));
    expect(byDescription.get("Slow job")).toMatchObject({ status: "CANCELLED", reason: "cancelled" });
    expect(byDescription.get("Chatty job")).toMatchObject({
      status: "COMPLETED",
      result: "pong: the page spoke to me",
      inbox: [],
    });
    const result = await runExit;
    expect(result.code).toBe(0);
  }, 180_000);
});
