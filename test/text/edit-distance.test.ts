import { expect, it } from "vitest";
import { editDistance } from "../../src/text/edit-distance.ts";

it("counts insertions, deletions, substitutions and neighbour swaps as one edit each", () => {
  expect(editDistance("", "")).toBe(0);
  expect(editDistance("abc", "")).toBe(3);
  expect(editDistance("", "abc")).toBe(3);
  expect(editDistance("list", "list")).toBe(0);
  expect(editDistance("lst", "list")).toBe(1);
  expect(editDistance("lisst", "list")).toBe(1);
  expect(editDistance("lizt", "list")).toBe(1);
  expect(editDistance("lsit", "list")).toBe(1);
  expect(editDistance("kitten", "sitting")).toBe(3);
  expect(editDistance("ca", "abc")).toBe(3); // optimal string alignment: no edit of a swapped pair
});

it("is symmetric", () => {
  for (const [a, b] of [
    ["model", "mdoel"],
    ["agents.json", "agent.jsn"],
    ["x", "yz"],
  ] as const) {
    expect(editDistance(a, b)).toBe(editDistance(b, a));
  }
});
