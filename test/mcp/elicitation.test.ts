import { describe, expect, it } from "vitest";
import { elicitationFields, parseFieldAnswer } from "../../src/mcp/elicitation.ts";
import { promptArguments, promptInfo } from "../../src/mcp/prompts.ts";

describe("elicitationFields", () => {
  it("reads MCP's flat form schema: types, required, defaults, bounds and choices", () => {
    const fields = elicitationFields({
      type: "object",
      properties: {
        name: { type: "string", title: "Name", description: "Your name" },
        age: { type: "integer", minimum: 0, maximum: 150 },
        ok: { type: "boolean", default: true },
        color: { type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"] },
        hero: { type: "string", oneOf: [{ const: "h1", title: "Superman" }] },
        tools: {
          type: "array",
          items: {
            anyOf: [
              { const: "a", title: "A" },
              { const: "b", title: "B" },
            ],
          },
        },
      },
      required: ["name"],
    });
    expect(fields).toEqual([
      { name: "name", type: "string", required: true, title: "Name", description: "Your name" },
      { name: "age", type: "integer", required: false, minimum: 0, maximum: 150 },
      { name: "ok", type: "boolean", required: false, default: true },
      {
        name: "color",
        type: "string",
        required: false,
        options: [
          { value: "r", title: "Red" },
          { value: "g", title: "Green" },
        ],
      },
      { name: "hero", type: "string", required: false, options: [{ value: "h1", title: "Superman" }] },
      {
        name: "tools",
        type: "string",
        required: false,
        multiple: true,
        options: [
          { value: "a", title: "A" },
          { value: "b", title: "B" },
        ],
      },
    ]);
  });

  it("declines a schema outside MCP's subset (nested objects) instead of guessing", () => {
    expect(elicitationFields({ type: "object", properties: { a: { type: "object" } } })).toBeUndefined();
    expect(elicitationFields({ type: "array" })).toBeUndefined();
  });
});

describe("parseFieldAnswer", () => {
  const field = (extra: object) => ({ name: "x", type: "string" as const, required: false, ...extra });
  it("checks each answer against its field", () => {
    expect(parseFieldAnswer(field({ type: "integer", minimum: 1 }), "0")).toEqual({ problem: "at least 1" });
    expect(parseFieldAnswer(field({ type: "integer" }), "2.5")).toEqual({ problem: "not a whole number" });
    expect(parseFieldAnswer(field({ type: "number" }), " 3.5 ")).toEqual({ value: 3.5 });
    expect(parseFieldAnswer(field({ type: "boolean" }), "y")).toEqual({ value: true });
    expect(parseFieldAnswer(field({ type: "boolean" }), "maybe")).toEqual({ problem: "answer y or n" });
    const choices = field({ options: [{ value: "r", title: "Red" }, { value: "g" }] });
    expect(parseFieldAnswer(choices, "2")).toEqual({ value: "g" });
    expect(parseFieldAnswer(choices, "Red")).toEqual({ value: "r" });
    expect(parseFieldAnswer({ ...choices, multiple: true }, "1, g")).toEqual({ value: ["r", "g"] });
    expect(parseFieldAnswer(choices, "blue")).toMatchObject({ problem: expect.any(String) });
  });

  it("an empty answer is the default, nothing for an optional field, and a problem for a required one", () => {
    expect(parseFieldAnswer(field({ default: "hi" }), "")).toEqual({ value: "hi" });
    expect(parseFieldAnswer(field({}), " ")).toEqual({ value: undefined });
    expect(parseFieldAnswer(field({ required: true }), "")).toEqual({ problem: "an answer is required" });
  });
});

describe("promptArguments", () => {
  const info = promptInfo("weather", {
    name: "forecast",
    arguments: [
      { name: "city", required: true },
      { name: "state", required: false },
    ],
  });

  it("takes values in order, or by name, quoted ones with spaces", () => {
    expect(info.command).toBe("mcp__weather__forecast");
    expect(promptArguments(info, '"New York" NY')).toEqual({ values: { city: "New York", state: "NY" } });
    expect(promptArguments(info, "state=CA city=Fresno")).toEqual({
      values: { state: "CA", city: "Fresno" },
    });
  });

  it("says what is missing or too much, with the usage", () => {
    expect(promptArguments(info, "")).toEqual({
      problem: "/mcp__weather__forecast needs city: /mcp__weather__forecast <city> [state]",
    });
    expect(promptArguments(info, "a b c")).toEqual({
      problem: '/mcp__weather__forecast takes <city> [state]; "c" is one too many.',
    });
  });
});
