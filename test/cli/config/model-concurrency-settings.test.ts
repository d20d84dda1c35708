import { expect, it } from "vitest";
import type { LoadedConfig } from "../../../src/cli/config/load-config.ts";
import { resolveSettings } from "../../../src/cli/config/resolve-settings.ts";
import { type ConfigFile, configFileSchema } from "../../../src/cli/config/schema.ts";
import { UsageError } from "../../../src/cli/errors.ts";

function layers(user?: ConfigFile, project?: ConfigFile): LoadedConfig {
  const loaded: LoadedConfig = {};
  if (user) loaded.user = { label: "~/.config/agentry/config.json", path: "/u", config: user };
  if (project) loaded.project = { label: "agentry.json", path: "/p", config: project };
  return loaded;
}

it("nothing set: the limiter's own defaults", () => {
  expect(resolveSettings({}, {}, {}).modelConcurrency).toEqual({});
});

it("project keys over user keys; --max-concurrency, then AGENTRY_MAX_CONCURRENCY, over both for max", () => {
  const loaded = layers(
    { modelConcurrency: { max: 8, min: 2, initial: 4 } },
    { modelConcurrency: { max: 12 } },
  );
  expect(resolveSettings(loaded, {}, {}, { trusted: true }).modelConcurrency).toEqual({
    max: 12,
    min: 2,
    initial: 4,
  });
  expect(resolveSettings(loaded, {}, { AGENTRY_MAX_CONCURRENCY: "6" }).modelConcurrency.max).toBe(6);
  expect(
    resolveSettings(loaded, { maxConcurrency: 3 }, { AGENTRY_MAX_CONCURRENCY: "6" }).modelConcurrency.max,
  ).toBe(3);
});

it("a minimum above the maximum is refused, naming where the maximum came from", () => {
  const loaded = layers(undefined, { modelConcurrency: { min: 10, max: 20 } });
  expect(() => resolveSettings(loaded, { maxConcurrency: 4 }, {})).toThrow(UsageError);
  expect(() => resolveSettings(loaded, { maxConcurrency: 4 }, {})).toThrow(
    "modelConcurrency.min (10) is above the most model calls allowed at once (4, from --max-concurrency)",
  );
  expect(() => resolveSettings(layers({ modelConcurrency: { min: 5, max: 4 } }), {}, {})).toThrow(
    "(4, from ~/.config/agentry/config.json)",
  );
  expect(() => resolveSettings({}, {}, { AGENTRY_MAX_CONCURRENCY: "zero" })).toThrow(
    "AGENTRY_MAX_CONCURRENCY must be a positive integer",
  );
});

it("the config file takes whole numbers ≥ 1 and no other keys", () => {
  expect(configFileSchema.safeParse({ modelConcurrency: { max: 64 } }).success).toBe(true);
  expect(configFileSchema.safeParse({ modelConcurrency: { max: 0 } }).success).toBe(false);
  expect(configFileSchema.safeParse({ modelConcurrency: { max: 2.5 } }).success).toBe(false);
  expect(configFileSchema.safeParse({ modelConcurrency: { ceiling: 8 } }).success).toBe(false);
});
