import { fileURLToPath } from "node:url";

/** The checkout's `bin/agentry.js`: it runs the TypeScript sources (src/cli/main.ts). */
export const SOURCE_BIN = fileURLToPath(new URL("../../bin/agentry.js", import.meta.url));

/** Set by the suite's global setup (test/support/build-cli.ts) to the CLI it bundled for the run. */
export const CLI_BIN_ENV = "AGENTRY_TEST_CLI_BIN";

/**
 * The `agentry` the tests spawn: the run's bundle of this checkout's sources when the suite's global
 * setup built one, else the sources themselves (a file run outside the suite's config, or
 * `AGENTRY_TEST_CLI=src`). Tests about how the sources start (the `--version` fast path) use
 * SOURCE_BIN instead.
 */
export function cliBin(): string {
  const built = process.env[CLI_BIN_ENV];
  return built === undefined || built === "" ? SOURCE_BIN : built;
}
