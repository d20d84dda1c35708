// A proxy-aware HTTP client for the sandboxed tests that need no curl: it runs under the Node that runs
// the tests, inside the sandbox, usually through the network bridge.
//   fetch <url>                  node's fetch, which follows HTTP_PROXY/HTTPS_PROXY (NODE_USE_ENV_PROXY=1)
//   via-proxy <port> <url>       an absolute-URI GET sent to the proxy on 127.0.0.1:<port>
//   tunnel <authority> <path>    CONNECT through HTTPS_PROXY, then GET <path> inside the tunnel
//   hold <authority>             CONNECT through HTTPS_PROXY; prints "open", then "closed" when it ends
// Prints the HTTP status on the first line and the body after it; a failure prints `error: <code>
// <message>` and exits 1.
import { type RequestOptions, request } from "node:http";
import type { Socket } from "node:net";

const [mode, first, second] = process.argv.slice(2);

/** Prints the innermost cause (fetch wraps the reason in one or two errors) and exits 1. */
function failed(error: unknown): never {
  let cause = error;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  const code = (cause as NodeJS.ErrnoException).code;
  process.stdout.write(`error: ${code ?? ""} ${cause instanceof Error ? cause.message : String(cause)}\n`);
  process.exit(1);
}

function connectThroughProxy(authority: string): Promise<{ status: number; socket: Socket }> {
  const proxy = new URL(process.env.HTTPS_PROXY ?? failed("HTTPS_PROXY is not set"));
  return new Promise((done, fail) => {
    const req = request({ host: proxy.hostname, port: proxy.port, method: "CONNECT", path: authority });
    req.on("connect", (res, socket) => done({ status: res.statusCode ?? 0, socket }));
    req.on("error", fail);
    req.end();
  });
}

/** A GET whose answer is printed as "<status>\n<body>". */
function get(options: RequestOptions, host: string): Promise<string> {
  return new Promise((done, fail) => {
    const req = request({ ...options, headers: { host } });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => done(`${res.statusCode}\n${body}`));
    });
    req.on("error", fail);
    req.end();
  });
}

try {
  if (mode === "fetch" && first !== undefined) {
    const response = await fetch(first);
    process.stdout.write(`${response.status}\n${await response.text()}`);
  } else if (mode === "via-proxy" && first !== undefined && second !== undefined) {
    const url = new URL(second);
    process.stdout.write(await get({ host: "127.0.0.1", port: Number(first), path: second }, url.host));
  } else if (mode === "tunnel" && first !== undefined && second !== undefined) {
    const { status, socket } = await connectThroughProxy(first);
    if (status !== 200) {
      process.stdout.write(`${status}\n`);
      process.exit(1);
    }
    process.stdout.write(await get({ createConnection: () => socket, path: second }, first));
  } else if (mode === "hold" && first !== undefined) {
    const { status, socket } = await connectThroughProxy(first);
    process.stdout.write(status === 200 ? "open\n" : `${status}\n`);
    socket.on("error", () => {});
    socket.on("close", () => process.stdout.write("closed\n"));
  } else {
    failed(`usage: ${process.argv[1]} fetch|via-proxy|tunnel|hold …`);
  }
} catch (error) {
  failed(error);
}
