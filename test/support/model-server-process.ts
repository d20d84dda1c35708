import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { RecordedRequest } from "./model-server.ts";
import type { ServerReply } from "./server-reply.ts";
import { tempDir } from "./temp-dir.ts";

/** The test model server running in a child process (see `model-server-cli.ts`). */
export interface ModelServerProcess {
  url: string;
  anthropicBaseUrl: string;
  openaiBaseUrl: string;
  /** Where the child writes its recorded requests after each one. */
  recordPath: string;
  /** The requests recorded so far, read from `recordPath`. */
  requests(): Promise<RecordedRequest[]>;
  /** Sends SIGTERM and waits for the exit (its temp folder goes with the test, see `tempDir`). */
  close(): Promise<void>;
}

const cliPath = fileURLToPath(new URL("./model-server-cli.ts", import.meta.url));

/** Starts the server in its own process, for tests where the client is another process. */
export async function startModelServerProcess(
  script: ServerReply[] | ServerReply,
): Promise<ModelServerProcess> {
  const dir = await tempDir("agentry-model-server-");
  const scriptPath = join(dir, "script.json");
  const recordPath = join(dir, "requests.json");
  await writeFile(scriptPath, JSON.stringify(script));
  const child = spawn(process.execPath, [cliPath, scriptPath, "--record", recordPath], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", (line) => resolve(line.trim()));
    child.once("exit", (code) => reject(new Error(`model-server-cli exited with ${code}: ${stderr.trim()}`)));
  });
  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    recordPath,
    async requests() {
      return JSON.parse(await readFile(recordPath, "utf8")) as RecordedRequest[];
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
