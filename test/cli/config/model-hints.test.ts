import { describe, expect, test } from "vitest";
import { parseConfigText } from "../../../src/cli/config/load-config.ts";
import { ModelConfigError } from "../../../src/model/errors.ts";
import { createModel, type ModelSettings } from "../../../src/model/registry.ts";

/** The message of the `ModelConfigError` that `fn` throws. */
function hintOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ModelConfigError");
}

/** `{ a: { b: value } }` from `"a.b"`. */
function nested(path: string, value: unknown): Record<string, unknown> {
  return path
    .split(".")
    .reverse()
    .reduce<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value as Record<string, unknown>);
}

describe("the model layer's hints name what the config accepts", () => {
  const env = { ANTHROPIC_API_KEY: "k" };

  test("an unknown model names the config key for aliases, and that key works", () => {
    const hint = hintOf(() => createModel("fast", {}, env));
    const key = /under ([\w.]+) in agentry\.json/.exec(hint)?.[1];
    expect(key, hint).toBeDefined();
    const config = parseConfigText(
      JSON.stringify(nested(key ?? "", { fast: "anthropic:claude-haiku-5-5" })),
      "agentry.json",
    );
    const settings: ModelSettings = config.providers ?? {};
    expect(createModel("fast", settings, env).id).toBe("anthropic:claude-haiku-5-5");
  });

  test("an alias cycle names the same key", () => {
    const hint = hintOf(() => createModel("a", { aliases: { a: "b", b: "a" } }, env));
    expect(hint).toMatch(/cycle: a → b → a\. Fix providers\.aliases in agentry\.json/);
  });
});
