import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./a2a-server.ts";

/**
 * What the proxy does to the calls (POSTs) it passes to the agent behind it. The card always passes,
 * rewritten to name the proxy, so a client calls the proxy.
 * - `pass`: nothing (a baseline).
 * - `http-500`: every call gets an HTML 500 page, as a broken gateway sends.
 * - `silent`: every call is held open and never answered.
 * - `cut-once`: the first streamed answer is cut after its first event; later calls pass.
 * - `cut-then-down`: the first streamed answer is cut after its first event; every later call has its
 *   connection destroyed (the agent went away mid-task).
 * - `garbage`: every call gets 200 with a body that is not JSON-RPC.
 * - `held-answers`: every call reaches the agent at once; its answer comes back once the test calls
 *   `release()` (and every later one at once).
 */
export type Fault =
  | "pass"
  | "http-500"
  | "silent"
  | "cut-once"
  | "cut-then-down"
  | "garbage"
  | "held-answers";

export interface FaultProxy {
  url: string;
  /** The JSON-RPC methods that reached the proxy, in order. */
  methods: string[];
  /** Lets the answers `held-answers` holds go back to the client. */
  release(): void;
  close(): Promise<void>;
}

/** A proxy on 127.0.0.1 in front of the A2A agent at `target` (its base URL), doing `fault`. */
export async function startFaultProxy(target: string, fault: Fault): Promise<FaultProxy> {
  const methods: string[] = [];
  const targetUrl = new URL(target);
  let url = "";
  let cut = false;
  const held: ServerResponse[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server = createServer((request, response) => {
    void handle(request, response).catch(() => response.destroy());
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    const upstream = new URL(path, targetUrl).href;
    if (request.method === "GET") {
      const card = await (await fetch(upstream)).text();
      response.writeHead(200, { "content-type": "application/json" }).end(card.replaceAll(target, url));
      return;
    }
    const body = await readBody(request);
    methods.push(String((JSON.parse(body) as { method?: unknown }).method));
    if (fault === "http-500") {
      response
        .writeHead(500, { "content-type": "text/html" })
        .end("<html><body>Internal Server Error</body></html>");
      return;
    }
    if (fault === "silent") {
      held.push(response);
      return;
    }
    if (fault === "garbage") {
      response.writeHead(200, { "content-type": "application/json" }).end('{"hello": "not a2a"}');
      return;
    }
    if (fault === "cut-then-down" && cut) {
      response.destroy();
      return;
    }
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json", ...copyHeaders(request) },
      body,
    });
    if (fault === "held-answers") await released;
    const streamed = answer.headers.get("content-type")?.startsWith("text/event-stream") === true;
    response.writeHead(answer.status, {
      "content-type": answer.headers.get("content-type") ?? "application/json",
    });
    if (answer.body === null) return void response.end();
    if (!streamed || cut || fault === "pass" || fault === "held-answers") {
      for await (const chunk of answer.body) response.write(chunk);
      response.end();
      return;
    }
    cut = true;
    for await (const chunk of answer.body) {
      // Flushed and read before the cut: the client has the task's id, as after a real mid-task cut.
      await new Promise<void>((resolve) => response.write(chunk, () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 50));
      break;
    }
    response.destroy();
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${targetUrl.pathname}`;
  return {
    url,
    methods,
    release,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of held) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function copyHeaders(request: IncomingMessage): Record<string, string> {
  const copied: Record<string, string> = {};
  for (const name of ["authorization", "a2a-version", "accept"]) {
    const value = request.headers[name];
    if (typeof value === "string") copied[name] = value;
  }
  return copied;
}
