// agentry's network launcher, run outside the sandbox by agentry's own Node when commands may reach
// allowed hosts and the sandbox refuses Unix sockets (seccomp-filter.ts):
//   node network-launcher-main.mjs <socketPath> <filterFile> <filterFd> -- <bwrap> <args…>
// Starts bubblewrap with the seccomp filter open on <filterFd> and an IPC channel on descriptor 3, which
// reaches the network bridge inside (network-bridge-main.mjs). The bridge cannot make a Unix socket
// itself: for each connection it asks here, and gets back one connected to the proxy's socket at
// <socketPath> — that socket, and nothing else. Exits with bubblewrap's code, or 128 + its signal.
// Plain JavaScript with no imports but node:, like the bridge.
import { spawn } from "node:child_process";
import { openSync } from "node:fs";
import { connect } from "node:net";
import { constants } from "node:os";

const [socketPath, filterFile, fdText, separator, file, ...args] = process.argv.slice(2);
if (
  socketPath === undefined ||
  filterFile === undefined ||
  !/^\d+$/.test(fdText ?? "") ||
  Number(fdText) < 4 ||
  separator !== "--" ||
  file === undefined
) {
  fail(125, "usage: network-launcher-main.mjs <socketPath> <filterFile> <filterFd> -- <bwrap> [args…]");
}

const stdio = ["inherit", "inherit", "inherit", "ipc"];
stdio[Number(fdText)] = openSync(filterFile, "r");
for (let fd = 4; fd < stdio.length; fd++) stdio[fd] ??= "ignore";
const child = spawn(file, args, { stdio });

child.on("message", (message) => {
  const id = typeof message === "object" && message !== null ? message.connect : undefined;
  if (typeof id !== "number") return;
  const socket = connect({ path: socketPath, allowHalfOpen: true });
  socket.once("connect", () => child.send({ connected: id }, socket));
  socket.once("error", (error) => {
    if (child.connected) child.send({ failed: id, error: error.message });
  });
});
// The group's signals reach bubblewrap too: here they only must not end the launcher before it.
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => {});
child.on("error", (error) => fail(125, `cannot run ${file}: ${error.message}`));
child.on("exit", (code, signal) => {
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});

function fail(code, message) {
  process.stderr.write(`agentry network launcher: ${message}\n`);
  process.exit(code);
}
