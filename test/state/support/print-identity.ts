// node print-identity.ts: prints this process's identity (`formatIdentity`), then waits to be killed.
import { currentProcess, formatIdentity } from "../../../src/state/process-identity.ts";

process.stdout.write(`${formatIdentity(currentProcess())}\n`);
setInterval(() => {}, 60_000);
