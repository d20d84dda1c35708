import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { createTestMcpServer, type TestMcpServerOptions } from "./mcp-server.ts";

export interface McpHttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:40123/mcp`. */
  url: string;
  /** The `Authorization` header of every request received, in order (undefined when absent). */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

/**
 * The test MCP server over Streamable HTTP on 127.0.0.1 (random port), in this process: `node:http` in
 * front of the SDK's `createMcpHandler` (a fresh server per request). With `token`, a request without
 * `Authorization: Bearer <token>` gets 401.
 */
export async function startMcpHttpServer(
  options: TestMcpServerOptions & { token?: string } = {},
): Promise<McpHttpServer> {
  const handler = createMcpHandler(() => createTestMcpServer(options));
  const authorizations: Array<string | undefined> = [];
  const http = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { "content-type": "application/json", "www-authenticate": "Bearer" });
      res.end(JSON.stringify({ error: "invalid_token", error_description: "a bearer token is required" }));
      return;
    }
    void serve(req, res, handler.fetch);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  fetch: (request: Request) => Promise<Response>,
): Promise<void> {
  try {
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    }
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method ?? "GET",
      headers,
      signal: controller.signal,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
    });
    const response = await fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) {
      res.end();
      return;
    }
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  } catch (error) {
    if (!res.headersSent) res.writeHead(500);
    res.end(String(error));
  }
}
