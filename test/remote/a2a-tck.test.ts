import { afterEach, expect, it } from "vitest";
import { finished, makeWorkspace, spawnCli } from "../cli/support/cli-process.ts";
import { providerEnv } from "../cli/support/provider-env.ts";
import { describeNeeding } from "../support/components.ts";
import { startModelServer } from "../support/model-server.ts";
import { waitFor } from "../support/processes.ts";
import { runTck } from "../support/tck/run-tck.ts";
import { startSdkReferenceServer } from "../support/tck/sdk-reference-server.ts";
import { TCK_DEBIAN_PACKAGES, tckPython } from "../support/tck/tck-python.ts";

/**
 * The A2A TCK (vendored, test/remote/fixtures/a2a-tck): its mandatory tests against the official SDK's
 * own server, then against `agentry serve` as a process; every test the SDK's server passes must pass
 * against agentry's. The TCK reads the card at the domain root without a token, so serve runs with
 * --public-cards; every call carries the token (A2A_AUTH_TYPE=bearer).
 */
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const python = tckPython();
const TOKEN = "tck-token-0123456789abcdef";

describeNeeding(
  {
    present: python !== undefined,
    what: "Python 3 with the A2A TCK's modules",
    missing: `the A2A TCK needs Python 3 with pytest, pytest-asyncio, requests, httpx and pyOpenSSL: install the Debian packages ${TCK_DEBIAN_PACKAGES} (or set AGENTRY_TCK_PYTHON to a python3 that has them); under CI=true this test fails instead of skipping.`,
  },
  "the A2A TCK, mandatory category",
  () => {
    it("agentry serve passes every mandatory test the official SDK's own server passes", async () => {
      const reference = await startSdkReferenceServer();
      cleanup.push(() => reference.close());
      const sdk = await runTck(python!, `${reference.url}/`);
      // The TCK ran: the SDK's server passes most of the mandatory tests (16 of 20 at the vendored commit).
      expect(sdk.passed.length, sdk.output).toBeGreaterThanOrEqual(10);

      const model = await startModelServer({ text: "hello from agentry" });
      cleanup.push(() => model.close());
      const ws = await makeWorkspace();
      const serve = spawnCli(["serve", "--port", "0", "--public-cards"], {
        cwd: ws.dir,
        env: { ...ws.env, ...providerEnv(model, "anthropic"), AGENTRY_SERVE_TOKEN: TOKEN },
      });
      const exited = finished(serve);
      cleanup.push(async () => {
        if (serve.exitCode === null) serve.kill("SIGTERM");
        await exited;
      });
      let stdout = "";
      serve.stdout?.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      await waitFor(() => /^general-purpose\t\S+$/m.test(stdout), 30_000, "agentry serve to print its URLs");
      const url = /^general-purpose\t(\S+)$/m.exec(stdout)?.[1] ?? "";
      const agentry = await runTck(python!, url, { A2A_AUTH_TYPE: "bearer", A2A_AUTH_TOKEN: TOKEN });

      const lost = sdk.passed.filter((test) => !agentry.passed.includes(test));
      expect(lost, agentry.output).toEqual([]);
    }, 180_000);
  },
);
