// agentry's network bridge, run inside the sandbox, whose network namespace has only loopback:
//   node network-bridge-main.mjs <socketPath> <port> -- <file> <args…>
// Listens on 127.0.0.1:<port> and copies each TCP connection to the proxy's Unix socket: one it connects
// to itself (the socket's folder bound into the sandbox), or, when it was started with an IPC channel
// (network-launcher-main.mjs, where the sandbox refuses to make Unix sockets), one the launcher outside
// connects and hands over. Once listening, runs <file> <args…> with this process's stdio and
// environment, passes it SIGTERM, SIGINT and SIGHUP, and exits with its exit code, or 128 + the signal
// that ended it.
// Plain JavaScript with no imports but node:, so that it starts fast and runs wherever agentry's Node
// runs, from the sources and from the package alike (network-bridge.ts exports its path).
// Exit codes of its own, as env(1) and the shells use them: 125 the bridge failed, 126 <file> could not
// be run, 127 <file> was not found.
import { spawn } from "node:child_process";
import { connect, createServer } from "node:net";
import { constants } from "node:os";

const [socketPath, portText, separator, file, ...args] = process.argv.slice(2);
if (
  socketPath === undefined ||
  separator !== "--" ||
  file === undefined ||
  !/^\d{1,5}$/.test(portText ?? "")
) {
  fail(125, "usage: network-bridge-main.mjs <socketPath> <port> -- <file> [args…]");
}

// Half-open on both sides: a client that shuts down its sending side after a request still reads the
// answer; `pipe` passes each end on.
const server = createServer({ allowHalfOpen: true }, (local) => {
  local.on("error", () => {});
  proxyConnection((remote) => {
    if (remote === undefined || local.destroyed) {
      remote?.destroy();
      local.destroy();
      return;
    }
    local.on("error", () => remote.destroy());
    remote.on("error", () => local.destroy());
    local.on("close", () => remote.destroy());
    remote.on("close", () => local.destroy());
    local.pipe(remote);
    remote.pipe(local);
  });
});

/** Connections the launcher was asked for, by id, waiting for its answer. */
const asked = new Map();
let lastId = 0;
if (process.send !== undefined) {
  process.on("message", (message, handle) => {
    const id = message?.connected ?? message?.failed;
    const deliver = asked.get(id);
    if (deliver === undefined) return;
    asked.delete(id);
    if (message.connected !== undefined && handle !== undefined) handle.setNoDelay?.(true);
    deliver(message.connected !== undefined ? handle : undefined);
  });
  // The channel must not keep the bridge alive: it ends with its command.
  process.channel?.unref();
}

/** A connection to the proxy, from the launcher when there is one, else made here. */
function proxyConnection(deliver) {
  if (process.send === undefined) {
    deliver(connect({ path: socketPath, allowHalfOpen: true }));
    return;
  }
  const id = ++lastId;
  asked.set(id, deliver);
  process.send({ connect: id });
}
server.on("error", (error) => fail(125, `cannot listen on 127.0.0.1:${portText}: ${error.message}`));
server.listen(Number(portText), "127.0.0.1", run);

function run() {
  // The handlers come first: the command may be running (and seen running) before spawn returns to
  // this line, and a signal that found no handler yet killed the bridge and left the command running
  // on, orphaned. A signal's handler runs after this function, when `child` is set.
  let child;
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
    process.on(signal, () => child.kill(signal));
  }
  child = spawn(file, args, { stdio: "inherit" });
  child.on("error", (error) => {
    fail(error.code === "ENOENT" ? 127 : 126, `cannot run ${file}: ${error.message}`);
  });
  child.on("exit", (code, signal) => {
    process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
  });
}

function fail(code, message) {
  process.stderr.write(`agentry network bridge: ${message}\n`);
  process.exit(code);
}
