import { expect, it } from "vitest";
import { isValidSessionId, newSessionId } from "../../src/agent/session/session-id.ts";

it("makes sortable, unique ids with an optional child prefix", () => {
  const id = newSessionId({ now: new Date("2025-01-14T09:30:12Z") });
  expect(id).toMatch(/^20250114-093012-[a-z0-9]{6}$/);
  expect(newSessionId({ prefix: "sub", now: new Date("2025-01-14T09:30:12Z") })).toMatch(
    /^sub-20250114-093012-[a-z0-9]{6}$/,
  );
  const earlier = newSessionId({ now: new Date("2024-12-31T23:59:59Z") });
  expect([id, earlier].sort()).toEqual([earlier, id]);
  const many = new Set(Array.from({ length: 1000 }, () => newSessionId()));
  expect(many.size).toBe(1000);
  expect([...many].every(isValidSessionId)).toBe(true);
});

it("rejects ids that are not safe file names", () => {
  for (const bad of ["", "..", ".hidden", "a/b", "a\\b", "-x", "x".repeat(129), "white space"]) {
    expect(isValidSessionId(bad), bad).toBe(false);
  }
});
