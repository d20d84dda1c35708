import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tempDir } from "./temp-dir.ts";

// The checks run in the next test: vitest runs a file's tests in order, one at a time.
describe("tempDir", () => {
  let madeByTest = "";
  let madeBySuite = "";

  it("gives a fresh, empty, real folder", async () => {
    madeByTest = await tempDir("agentry-temp-dir-test-");
    const other = await tempDir("agentry-temp-dir-test-");
    expect(madeByTest).not.toBe(other);
    expect(existsSync(madeByTest)).toBe(true);
  });

  it("removes a test's folder when that test finishes", () => {
    expect(madeByTest).not.toBe("");
    expect(existsSync(madeByTest)).toBe(false);
  });

  describe("made outside a test", async () => {
    madeBySuite = await tempDir("agentry-temp-dir-suite-");

    it("keeps it for the rest of the file", () => {
      expect(existsSync(madeBySuite)).toBe(true);
    });
  });
});
