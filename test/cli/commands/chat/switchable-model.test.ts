import { describe, expect, it } from "vitest";
import { switchableModel } from "../../../../src/cli/commands/chat/switchable-model.ts";
import { scriptedModel } from "../../../../src/testing/scripted-model.ts";

const request = { system: "", messages: [], tools: [] };

describe("the interactive mode's switchable model", () => {
  it("sends each call to the model it currently points at", async () => {
    const first = scriptedModel({ text: "one" }, { id: "a:first" });
    const second = scriptedModel({ text: "two" }, { id: "b:second" });
    const model = switchableModel(first);
    expect(model.id).toBe("a:first");
    expect((await model.stream(request).result()).model).toBe("a:first");

    model.switchTo(second);
    expect(model.id).toBe("b:second");
    expect(model.current).toBe(second);
    expect((await model.stream(request).result()).model).toBe("b:second");
    expect([first.requests.length, second.requests.length]).toEqual([1, 1]);
  });
});
