import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const TCK = fileURLToPath(new URL("../../remote/fixtures/a2a-tck/", import.meta.url));

export interface TckResult {
  /** `path::test` of every mandatory test that passed. */
  passed: string[];
  failed: string[];
  /** pytest's output, for a failure's message. */
  output: string;
}

/**
 * Runs the vendored TCK's mandatory tests against the A2A agent at `url` (the card is read from its
 * domain root), with `env` (the TCK's auth settings: `A2A_AUTH_TYPE`, `A2A_AUTH_TOKEN`).
 */
export function runTck(python: string, url: string, env: Record<string, string> = {}): Promise<TckResult> {
  const child = spawn(
    python,
    [
      "-m",
      "pytest",
      "tests/mandatory",
      "-m",
      "mandatory",
      "--sut-url",
      url,
      "-q",
      "-rA",
      "-p",
      "no:cacheprovider",
    ],
    {
      cwd: TCK,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/tmp",
        PYTHONDONTWRITEBYTECODE: "1",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", () => {
      const of = (word: string) =>
        [...output.matchAll(new RegExp(`^${word} (\\S+)`, "gm"))].map((m) => m[1] ?? "");
      resolve({ passed: of("PASSED"), failed: [...of("FAILED"), ...of("ERROR")], output });
    });
  });
}
