import { expect, test } from "vitest";
import { measureUi } from "../../bench/ui.ts";
import { expectWellFormed, rowNamed } from "./support.ts";

test("the web view benchmark times a record change to the page (here through an SSE client)", async () => {
  const rows = await measureUi({ records: 100, runs: 1, withoutBrowser: true });
  expectWellFormed(rows, "web view");
  expect(rowNamed(rows, "record change → page updated, 100 tasks").goal).toEqual({ max: 250 });
}, 120_000);
