import { copyFile, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPackage } from "../../scripts/build.ts";
import { CLI_BIN_ENV } from "./cli-bin.ts";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The suite's global setup: bundles this checkout's CLI once per run, as `npm run build` does (without
 * the `.d.ts` files), into a temp folder laid out like the installed package — `bin/agentry.js`,
 * `package.json`, `dist/` and this checkout's `node_modules/` linked beside them — and hands its
 * `bin/agentry.js` to every test through the environment (cliBin()).
 *
 * Why: the tests start the CLI some 500 times a run. From the sources each start strips and compiles
 * ~385 TypeScript modules (~330 ms of CPU for a `run`); the bundle starts in about half that, which on
 * a 2-core machine is over a tenth of the suite's time (docs/decisions/0020-suite-runs-the-bundle.md).
 * The bundle is built from the sources of this run, so a test still tests the code as it is now.
 * `AGENTRY_TEST_CLI=src` runs the sources instead.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.AGENTRY_TEST_CLI === "src") return undefined;
  const dir = await mkdtemp(join(tmpdir(), "agentry-test-cli-"));
  try {
    await buildPackage(join(dir, "dist"), { declarations: false });
    await mkdir(join(dir, "bin"));
    await copyFile(join(REPO, "bin", "agentry.js"), join(dir, "bin", "agentry.js"));
    await copyFile(join(REPO, "package.json"), join(dir, "package.json"));
    await symlink(join(REPO, "node_modules"), join(dir, "node_modules"), "dir");
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  process.env[CLI_BIN_ENV] = join(dir, "bin", "agentry.js");
  return async () => {
    delete process.env[CLI_BIN_ENV];
    await rm(dir, { recursive: true, force: true });
  };
}
