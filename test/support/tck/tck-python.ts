import { spawnSync } from "node:child_process";

/** The Python modules the vendored TCK imports (test/remote/fixtures/a2a-tck/SOURCE.md). */
const MODULES = ["pytest", "pytest_asyncio", "requests", "httpx", "OpenSSL"];

export const TCK_DEBIAN_PACKAGES =
  "python3-pytest python3-pytest-asyncio python3-requests python3-httpx python3-openssl";

/**
 * A Python 3 that has every module the TCK needs: `AGENTRY_TCK_PYTHON`, else `python3` on PATH, else
 * Debian's `/usr/bin/python3` (a pyenv or venv `python3` first on PATH may lack the system's packages).
 */
export function tckPython(): string | undefined {
  const candidates = [process.env.AGENTRY_TCK_PYTHON, "python3", "/usr/bin/python3"];
  return candidates.find(
    (python) =>
      python !== undefined &&
      python !== "" &&
      spawnSync(python, ["-c", MODULES.map((module) => `import ${module}`).join("; ")], { stdio: "ignore" })
        .status === 0,
  );
}
