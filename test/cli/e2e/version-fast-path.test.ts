import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../../bin/agentry.js", import.meta.url));
const { version } = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

// Records every module the process loads and prints the list on stderr as it exits.
const RECORDER = `data:text/javascript,${encodeURIComponent(`
  import { registerHooks } from "node:module";
  const loaded = [];
  registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
  process.on("exit", () => process.stderr.write(JSON.stringify(loaded)));
`)}`;

function agentry(...args: string[]): { code: number | null; stdout: string; modules: string[] } {
  const result = spawnSync(process.execPath, ["--import", RECORDER, BIN, ...args], { encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, modules: JSON.parse(result.stderr) as string[] };
}

describe("agentry --version in bin/agentry.js", () => {
  it("answers from package.json before any module of the CLI loads", () => {
    for (const flag of ["--version", "-v"]) {
      const result = agentry(flag);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
      expect(
        result.modules.filter((url) => url.startsWith("file:") && !url.endsWith("/bin/agentry.js")),
      ).toEqual([]);
    }
  });

  it("leaves --version with other arguments to the CLI", () => {
    const result = agentry("--version", "--help");
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(version);
    expect(result.modules.some((url) => url.endsWith("/src/cli/main.ts"))).toBe(true);
  });
});
