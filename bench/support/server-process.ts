import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("./server-main.ts", import.meta.url));

export interface ServerProcess {
  url: string;
  /** Stops the server and returns its script's summary of the requests it served. */
  close(): Promise<unknown>;
}

/** Starts the test model server in its own process, scripted by `scriptModule` with `args`. */
export async function startServerProcess(scriptModule: URL, args: unknown): Promise<ServerProcess> {
  const child = spawn(process.execPath, [MAIN, scriptModule.href, JSON.stringify(args)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`bench server exited with ${code}: ${stderr.trim()}`));
      child.once("exit", onExit);
      lines.once("line", (line) => {
        child.off("exit", onExit);
        resolve(line);
      });
    });
  const url = (await next()).trim();
  return {
    url,
    async close() {
      const summary = next();
      child.kill("SIGTERM");
      return JSON.parse(await summary) as unknown;
    },
  };
}
