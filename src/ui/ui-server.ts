import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TaskFileError } from "../tasks/task-errors.ts";
import type { TaskStore } from "../tasks/task-store.ts";
import { errorMessage } from "../text/error-message.ts";
import { loadPage, type PageFile } from "./page-files.ts";
import { taskActions } from "./task-actions.ts";
import { TaskFeed } from "./task-feed.ts";
import { transcriptView } from "./transcript-entries.ts";
import { type Access, checkAccess, grantCookie } from "./ui-access.ts";

export interface UiServerOptions {
  store: TaskStore;
  /** Where transcripts are read (`.agentry/sessions/` of this workspace). */
  workspace: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  token: string;
  /** Marks tasks whose owner is gone FAILED (orphaned); called when a cancel gets no answer. */
  sweep?: () => Promise<void>;
  log: (line: string) => void;
}

export interface UiServer {
  /** `http://host:port` */
  readonly url: string;
  /** The URL to open: it hands the page its token once (then a cookie carries it). */
  readonly openUrl: string;
  close(): Promise<void>;
}

/** SSE comments this often keep proxies and the browser from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

/**
 * The web view: one page that draws every task of `store` as a live tree, its transcripts, and cancel
 * and message actions that go through the store as `agentry tasks cancel` does. The tree follows the
 * store's `watch()`; pages get its changes by SSE (`/events`). Every request needs the token (a
 * cookie set from `?token=` on the first visit, or `Authorization: Bearer`).
 */
export async function serveUi(options: UiServerOptions): Promise<UiServer> {
  const page = await loadPage();
  const feed = new TaskFeed(options.store, (error: TaskFileError) =>
    options.log(`warning: ${error.message}`),
  );
  await feed.start();
  const actions = taskActions({
    store: options.store,
    feed,
    log: options.log,
    ...(options.sweep ? { sweep: options.sweep } : {}),
  });
  const streams = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      options.log(`error: ${errorMessage(error)}`);
      if (!response.headersSent) sendJson(response, 500, { error: errorMessage(error) });
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://ui.invalid");
    const access = checkAccess(request, url, options.token);
    if (access === "token-in-url") {
      // The token leaves the address bar (and the history) at once; a cookie carries it from now on.
      response.writeHead(303, { location: "/", "set-cookie": grantCookie(options.token), ...SECURITY });
      response.end();
      return;
    }
    if (access === "refused") return refuse(response, url.pathname);
    await route(request, response, url, access);
  }

  async function route(request: IncomingMessage, response: ServerResponse, url: URL, _access: Access) {
    const { pathname } = url;
    if (request.method === "GET") {
      const file = page.get(pathname === "/" ? "/index.html" : pathname);
      if (file !== undefined) return sendFile(response, file);
      if (pathname === "/events") return stream(request, response);
      const transcript = /^\/api\/transcripts\/([^/]+)$/.exec(pathname);
      if (transcript) {
        const found = await transcriptView(options.workspace, segment(transcript[1]));
        return found.found
          ? sendJson(response, 200, found.transcript)
          : sendJson(response, found.status, { error: found.error });
      }
      if (pathname === "/api/tasks") return sendJson(response, 200, feed.snapshot());
      return sendJson(response, 404, { error: `No page ${pathname}.` });
    }
    if (request.method === "POST") {
      const action = /^\/api\/tasks\/([^/]+)\/(cancel|message)$/.exec(pathname);
      if (!action) return sendJson(response, 404, { error: `No action ${pathname}.` });
      if (!(request.headers["content-type"] ?? "").startsWith("application/json"))
        return sendJson(response, 415, { error: "Send the action as application/json." });
      const body = await readJson(request);
      if (body === TOO_LARGE) return sendJson(response, 413, { error: "An action's body is at most 64 KB." });
      const taskId = segment(action[1]);
      const answer =
        action[2] === "cancel" ? await actions.cancel(taskId) : await actions.message(taskId, body);
      return sendJson(response, answer.status, answer.body);
    }
    response.writeHead(405, { allow: "GET, POST", ...SECURITY });
    response.end();
  }

  function stream(request: IncomingMessage, response: ServerResponse): void {
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      connection: "keep-alive",
      ...SECURITY,
    });
    const send = (event: string, data: unknown) =>
      response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    response.write("retry: 1000\n\n");
    send("snapshot", feed.snapshot());
    const unsubscribe = feed.subscribe((update) => send("update", update));
    const alive = setInterval(() => response.write(": alive\n\n"), KEEP_ALIVE_MS);
    alive.unref();
    streams.add(response);
    request.on("close", () => {
      clearInterval(alive);
      unsubscribe();
      streams.delete(response);
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;
  return {
    url,
    openUrl: `${url}/?token=${encodeURIComponent(options.token)}`,
    async close() {
      feed.stop();
      for (const response of streams) response.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Headers of every answer: nothing from elsewhere runs in the page, nothing is cached or framed. */
const SECURITY = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

function refuse(response: ServerResponse, pathname: string): void {
  const text =
    "agentry ui needs its token: open the address agentry ui printed (it ends in ?token=…), or send Authorization: Bearer <token>.";
  if (pathname.startsWith("/api/") || pathname === "/events") {
    sendJson(response, 401, { error: text });
    return;
  }
  response.writeHead(401, { "content-type": "text/plain; charset=utf-8", ...SECURITY });
  response.end(`${text}\n`);
}

function sendFile(response: ServerResponse, file: PageFile): void {
  response.writeHead(200, { "content-type": file.type, ...SECURITY });
  response.end(file.body);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", ...SECURITY });
  response.end(JSON.stringify(body));
}

/** A path segment as the id it names; a malformed escape names none (the id check refuses ""). */
function segment(text: string | undefined): string {
  try {
    return decodeURIComponent(text ?? "");
  } catch {
    return "";
  }
}

const TOO_LARGE = Symbol("too large");

/** An action's body: at most 64 KB of JSON (`undefined` when it is not JSON). */
async function readJson(request: IncomingMessage): Promise<unknown> {
  let text = "";
  for await (const chunk of request) {
    text += String(chunk);
    if (text.length > 65_536) {
      request.resume();
      return TOO_LARGE;
    }
  }
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
