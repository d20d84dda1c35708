import { describe, expect, it } from "vitest";
import { didYouMean } from "../../../src/cli/config/did-you-mean.ts";

describe("didYouMean", () => {
  const keys = ["model", "providers", "maxTurns", "permissionMode", "permission", "toolOutputLimit"];

  it("finds typos, transpositions and case slips", () => {
    expect(didYouMean("modle", keys)).toBe("model");
    expect(didYouMean("max_turns", keys)).toBe("maxTurns");
    expect(didYouMean("MAXTURNS", keys)).toBe("maxTurns");
    expect(didYouMean("permisionMode", keys)).toBe("permissionMode");
  });

  it("suggests nothing for unrelated words", () => {
    expect(didYouMean("colour", keys)).toBeUndefined();
    expect(didYouMean("x", [])).toBeUndefined();
  });
});
