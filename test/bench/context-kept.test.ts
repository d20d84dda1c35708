import { expect, test } from "vitest";
import { measureContextKept } from "../../bench/context-kept.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test("the context benchmark compares the parent's last request with and without a child", async () => {
  const rows = await measureContextKept({ files: 3 });
  expectWellFormed(rows, "context kept");
  const undelegated = rowNamed(rows, "transcript tokens, undelegated").samples[0]!;
  const delegated = rowNamed(rows, "transcript tokens, delegated").samples[0]!;
  expect(delegated).toBeGreaterThan(0);
  expect(delegated).toBeLessThan(undelegated);
});
