import { expect, test } from "vitest";
import { measureServeMemory } from "../../bench/serve-memory.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test("the serve memory benchmark reads the heap and RSS of agentry serve after rounds of tasks", async () => {
  const rows = await measureServeMemory({ runs: 1, warmup: 2, tasks: 3, rounds: 1 });
  expectWellFormed(rows, "serve memory");
  expect(rowNamed(rows, "heap kept per 3 tasks").goal).toEqual({ max: 5 });
  expect(rowNamed(rows, "RSS after 2 tasks").samples[0]).toBeGreaterThan(0);
}, 120_000);
