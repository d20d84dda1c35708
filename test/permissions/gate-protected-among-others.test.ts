import { describe, expect, it } from "vitest";
import { type AskHandler, createPermissionGate } from "../../src/permissions/gate.ts";
import { PermissionDeniedError, type Ruleset } from "../../src/permissions/types.ts";

const main = { path: ["main"] };
/** Every edit asks, so an ordinary path and a protected one are both pending in one request. */
const rules: Ruleset = [{ permission: "edit", pattern: "*", action: "ask" }];
const patterns = ["src/a.ts", ".git/config"];

describe("a protected path among ordinary ones in one edit request", () => {
  it("goes to a person, although the mode accepts the ordinary edit", async () => {
    const asked: string[][] = [];
    const onAsk: AskHandler = async (request) => {
      asked.push(request.patterns);
      return "once";
    };
    const gate = createPermissionGate({ rules, mode: "accept-edits", onAsk });
    await gate({ permission: "edit", patterns }, main);
    expect(asked).toEqual([patterns]);
  });

  it("is refused when the request does not ask, although the mode accepts the ordinary edit", async () => {
    const gate = createPermissionGate({ rules, mode: "accept-edits" });
    const refused = gate({ permission: "edit", patterns, prompt: false }, main);
    await expect(refused).rejects.toThrow(PermissionDeniedError);
    await expect(refused).rejects.toMatchObject({ refused: { denied: [], needsApproval: patterns } });
  });
});
