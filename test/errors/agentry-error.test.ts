import { describe, expect, it } from "vitest";
import type * as errors from "../../src/errors/agentry-error.ts";
import { AgentryError, errorKind, isAgentryError } from "../../src/errors/agentry-error.ts";
import { secondCopyOf } from "../support/second-copy.ts";

class BadFlag extends AgentryError {
  readonly kind = "user";
}

describe("AgentryError", () => {
  it("is recognised by its fault, also when another copy of agentry made it", async () => {
    const other = await secondCopyOf<typeof errors>("errors/agentry-error.ts");
    class OtherCopyFailure extends other.AgentryError {
      readonly kind = "system";
    }
    const foreign = new OtherCopyFailure("lock held too long");
    // Really another copy: instanceof cannot see it, the mark can.
    expect(foreign instanceof AgentryError).toBe(false);
    expect(isAgentryError(foreign)).toBe(true);
    expect(errorKind(foreign)).toBe("system");
    expect(other.isAgentryError(new BadFlag("--max-turns must be a number"))).toBe(true);
  });

  it("is not claimed by anything else", () => {
    expect(isAgentryError(new Error("x"))).toBe(false);
    expect(isAgentryError({ kind: "user", message: "look-alike" })).toBe(false);
    expect(isAgentryError(null)).toBe(false);
    expect(isAgentryError("user")).toBe(false);
    const forged = Object.assign(new Error("x"), {
      kind: "whatever",
      [Symbol.for("agentry-ai.error")]: true,
    });
    expect(errorKind(forged)).toBeUndefined();
  });
});
