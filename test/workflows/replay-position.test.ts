import { expect, test } from "vitest";
import { isPosition, mayFeed } from "../../src/workflows/replay-position.ts";

test("a position is levels of ordinal, item and stage; anything else is refused", () => {
  for (const good of ["0", "12", "3.1", "3.1.2", "3.1.2/0", "2/0.4/1"]) expect(isPosition(good)).toBe(true);
  for (const bad of ["", "-1", "1.2.3.4", "1//2", "a", "1/", "01x"]) expect(isPosition(bad)).toBe(false);
});

test("a call may feed what follows it in its scope and the later stages of its own pipeline item, never a sibling item", () => {
  // The body: earlier ordinals feed later ones, and whatever is inside them.
  expect(mayFeed("0", "1")).toBe(true);
  expect(mayFeed("1", "0")).toBe(false);
  expect(mayFeed("0", "3.1.2/0")).toBe(true);
  expect(mayFeed("3.1.2/0", "4")).toBe(true);
  // A pipeline: stage 0 of item 1 feeds its stages 1 and 2, not item 2's.
  expect(mayFeed("3.1.0/0", "3.1.1/0")).toBe(true);
  expect(mayFeed("3.1.0/0", "3.1.2/5")).toBe(true);
  expect(mayFeed("3.1.1/0", "3.1.0/0")).toBe(false);
  expect(mayFeed("3.1.0/0", "3.2.1/0")).toBe(false);
  // Parallel items are independent; calls within one item are ordered.
  expect(mayFeed("2.0/0", "2.1/0")).toBe(false);
  expect(mayFeed("2.0/0", "2.0/1")).toBe(true);
  // A nested workflow's calls sit under the workflow() call's position.
  expect(mayFeed("1/0", "1/1")).toBe(true);
  expect(mayFeed("0", "1/0")).toBe(true);
  expect(mayFeed("1/3", "2")).toBe(true);
  // A call does not feed itself.
  expect(mayFeed("3.1.2/0", "3.1.2/0")).toBe(false);
});
