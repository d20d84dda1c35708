// The web view: how long a record change takes to reach `agentry ui`'s page, with 1,000 tasks in the
// store. A real `agentry ui` process (this checkout's bin) on a workspace of 1,000 records; a writer
// in this process changes one running task's activity (as an owner does); the page, in Debian's
// chromium driven by playwright-core, notes the moment its row shows the change (a MutationObserver).
// Without chromium, a plain SSE client takes the page's place (said in the row's note).
//   node bench/ui.ts [--runs 20]
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { WorkspaceTaskStore } from "../src/tasks/workspace/workspace-task-store.ts";
import { type BenchArgs, benchMain } from "./support/bench-main.ts";
import { type Row, row } from "./support/row.ts";
import { writeTaskFixture } from "./support/task-fixture.ts";
import { tempDir } from "./support/temp-dir.ts";

export interface UiBenchOptions extends BenchArgs {
  /** Records in the store (default 1,000, in 10 files). */
  records?: number;
  /** Use a plain SSE client even where chromium is installed (the smoke test). */
  withoutBrowser?: boolean;
}

const FIGURE = "web view";
const BIN = fileURLToPath(new URL("../bin/agentry.js", import.meta.url));
const TOKEN = "bench-ui-token-0123456789abcdef";

export async function measureUi(options: UiBenchOptions = {}): Promise<Row[]> {
  const runs = options.runs ?? 20;
  const total = options.records ?? 1_000;
  const { dir, remove } = await tempDir("ui");
  let ui: ChildProcess | undefined;
  try {
    const records = await writeTaskFixture(dir, total, Math.max(1, Math.round(total / 100)));
    const target = records.find((record) => record.status === "RUNNING");
    if (target === undefined) throw new Error("web view: the fixture has no running task");
    const started = await startUi(dir);
    ui = started.child;
    const chromium = options.withoutBrowser ? undefined : chromiumPath();
    const page =
      chromium === undefined
        ? await sseWatcher(started.base)
        : await browserWatcher(started.openUrl, chromium);
    try {
      const store = new WorkspaceTaskStore({ workspace: dir });
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const text = `bash step ${i}`;
        await page.expect(text);
        const before = Date.now();
        await store.update(target.taskId, {
          activity: {
            turns: i + 1,
            tokensIn: 1000 + i,
            tokensOut: 10,
            tools: [{ name: "bash", arg: `step ${i}` }],
          },
        });
        samples.push((await page.seen()) - before);
        await sleep(50);
      }
      return [
        row(FIGURE, `record change → page updated, ${total} tasks`, "ms", samples, {
          goal: { max: 250 },
          note:
            `from the start of one TaskStore.update() (a running task's activity, as its owner writes it) to the ` +
            `moment ${chromium === undefined ? "an SSE client (chromium was not installed)" : "the page in chromium (headless, playwright-core)"} ` +
            `shows the new activity; \`agentry ui\` in its own process (this checkout), ${total} records in the workspace's files. ` +
            "Includes the locked, fsync'd write, the file watch, the re-read of the record, the tree of every record rebuilt and diffed, SSE, and the DOM update.",
        }),
      ];
    } finally {
      await page.close();
    }
  } finally {
    ui?.kill("SIGTERM");
    await remove();
  }
}

interface Watcher {
  /** Starts looking for a row whose activity reads `text`. */
  expect(text: string): Promise<void>;
  /** When it was seen (Date.now() of the watcher, on this machine's clock). */
  seen(): Promise<number>;
  close(): Promise<void>;
}

function chromiumPath(): string | undefined {
  const found = spawnSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" });
  const path = found.stdout.trim();
  return found.status === 0 && path.startsWith("/") ? path : undefined;
}

async function startUi(workspace: string): Promise<{ child: ChildProcess; base: string; openUrl: string }> {
  const child = spawn(process.execPath, [BIN, "ui", "--port", "0", "--cwd", workspace], {
    cwd: workspace,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: workspace,
      NO_COLOR: "1",
      AGENTRY_UI_TOKEN: TOKEN,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const openUrl = await new Promise<string>((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^(http:\/\/\S+\?token=\S+)$/m.exec(out)?.[1];
      if (line) resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`agentry ui exited (${code}): ${err}`)));
  });
  return { child, base: openUrl.replace(/\/\?token=.*$/, ""), openUrl };
}

async function browserWatcher(openUrl: string, executablePath: string): Promise<Watcher> {
  const { chromium } = await import("playwright-core");
  const profile = await tempDir("ui-chromium");
  const context = await chromium.launchPersistentContext(profile.dir, {
    executablePath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  const page = await context.newPage();
  await page.goto(openUrl);
  await page.locator(".row").nth(1).waitFor({ timeout: 60_000 });
  return {
    async expect(text) {
      // The observer is in place before the write starts: its time is the page's, on this machine's clock.
      await page.evaluate((wanted) => {
        const scope = globalThis as unknown as {
          document: {
            querySelectorAll(s: string): Iterable<{ textContent: string | null }>;
            getElementById(id: string): unknown;
          };
          MutationObserver: new (
            callback: () => void,
          ) => { observe(node: unknown, options: object): void; disconnect(): void };
          seenAt?: Promise<number>;
        };
        scope.seenAt = new Promise((resolve) => {
          const shows = () =>
            [...scope.document.querySelectorAll(".activity")].some((cell) => cell.textContent === wanted);
          const observer = new scope.MutationObserver(() => {
            if (!shows()) return;
            observer.disconnect();
            resolve(Date.now());
          });
          observer.observe(scope.document.getElementById("rows"), {
            subtree: true,
            childList: true,
            characterData: true,
          });
        });
      }, text);
    },
    seen: () => page.evaluate(() => (globalThis as unknown as { seenAt: Promise<number> }).seenAt),
    async close() {
      await context.close();
      await profile.remove();
    },
  };
}

async function sseWatcher(base: string): Promise<Watcher> {
  const abort = new AbortController();
  const response = await fetch(`${base}/events`, {
    headers: { authorization: `Bearer ${TOKEN}` },
    signal: abort.signal,
  });
  if (response.body === null) throw new Error("web view: /events has no body");
  let wanted = "";
  let found: ((at: number) => void) | undefined;
  let seenAt = Promise.resolve(0);
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        if (wanted !== "" && text.includes(`"activity":"${wanted}"`)) found?.(Date.now());
      }
    } catch {
      // closed
    }
  })();
  return {
    async expect(text) {
      wanted = text;
      seenAt = new Promise((resolve) => {
        found = resolve;
      });
    },
    seen: () => seenAt,
    async close() {
      abort.abort();
    },
  };
}

await benchMain(import.meta, measureUi);
