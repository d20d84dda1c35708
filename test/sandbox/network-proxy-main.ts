// The network proxy as a process of its own, for tests that give it a different view of the machine (its
// own /etc/hosts, in network-rebinding.test.ts):
//   node network-proxy-main.ts <socketDir> <allowedHosts as JSON>
// Prints the socket's path on one line once listening; closes the proxy and exits on SIGTERM.
import { startNetworkProxy } from "../../src/sandbox/network-proxy.ts";

const [socketDir, allowed] = process.argv.slice(2);
if (socketDir === undefined || allowed === undefined)
  throw new Error("usage: network-proxy-main.ts <socketDir> <json>");
const proxy = await startNetworkProxy({ allowedHosts: JSON.parse(allowed) as string[], socketDir });
process.stdout.write(`${proxy.socketPath}\n`);
process.on("SIGTERM", () => void proxy.close().then(() => process.exit(0)));
