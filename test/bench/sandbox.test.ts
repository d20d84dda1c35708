import { expect, test } from "vitest";
import { measureSandbox } from "../../bench/sandbox.ts";
import { sandboxBackend } from "../sandbox/support.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

const available = await sandboxBackend();

test.skipIf(available.skip !== undefined)(
  `the sandbox benchmark measures the per-command overhead ${available.skip ?? ""}`,
  async () => {
    const rows = await measureSandbox({ runs: 2, files: 20 });
    expectWellFormed(rows, "sandbox");
    expect(rowNamed(rows, "start-up overhead per command, workspace-write").goal).toEqual({ max: 15 });
    expect(rowNamed(rows, "start-up overhead per command, read-only").samples).toHaveLength(2);
  },
);
