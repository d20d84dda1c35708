import { expect, it } from "vitest";
import type { LoadedConfig } from "../../../src/cli/config/load-config.ts";
import { resolveSettings } from "../../../src/cli/config/resolve-settings.ts";
import { type ConfigFile, configFileSchema } from "../../../src/cli/config/schema.ts";
import { UsageError } from "../../../src/cli/errors.ts";
import { wireCompaction } from "../../../src/cli/wire/wire-compaction.ts";

function layers(user?: ConfigFile, project?: ConfigFile): LoadedConfig {
  const loaded: LoadedConfig = {};
  if (user) loaded.user = { label: "~/.config/agentry/config.json", path: "/u", config: user };
  if (project) loaded.project = { label: "agentry.json", path: "/p", config: project };
  return loaded;
}

it("compacts by default; project keys over user keys", () => {
  expect(resolveSettings({}, {}, {}).compaction).toEqual({ enabled: true });
  const loaded = layers(
    { compaction: { threshold: 0.7, keepTurns: 3, model: "haiku" } },
    { compaction: { enabled: false, keepTurns: 1 } },
  );
  expect(resolveSettings(loaded, {}, {}, { trusted: true }).compaction).toEqual({
    enabled: false,
    threshold: 0.7,
    keepTurns: 1,
    model: { value: "haiku", source: "~/.config/agentry/config.json" },
  });
});

it("the config file takes a share of the window, whole turns and a model id, and no other keys", () => {
  const valid = (compaction: unknown) => configFileSchema.safeParse({ compaction }).success;
  expect(valid({ enabled: false, threshold: 0.85, keepTurns: 2, model: "anthropic:claude-haiku-4-5" })).toBe(
    true,
  );
  expect(valid({ threshold: 80 })).toBe(false);
  expect(valid({ threshold: 0.99 })).toBe(false);
  expect(valid({ keepTurns: 0 })).toBe(false);
  expect(valid({ auto: true })).toBe(false);
  expect(
    configFileSchema.safeParse({ providers: { contextWindows: { "ollama:qwen3": 40960 } } }).success,
  ).toBe(true);
  expect(
    configFileSchema.safeParse({ providers: { contextWindows: { "ollama:qwen3": "big" } } }).success,
  ).toBe(false);
});

it("builds the summary model and the context windows from the settings", async () => {
  const settings = resolveSettings(
    layers(undefined, {
      compaction: { model: "anthropic:claude-haiku-4-5", threshold: 0.6 },
      providers: { contextWindows: { "ollama:qwen3": 40_960 } },
    }),
    {},
    { ANTHROPIC_API_KEY: "k" },
  );
  const options = await wireCompaction(settings, { ANTHROPIC_API_KEY: "k" });
  expect(options.model?.id).toBe("anthropic:claude-haiku-4-5");
  expect(options.threshold).toBe(0.6);
  expect(options.contextWindow?.("ollama:qwen3")).toBe(40_960);
  expect(options.contextWindow?.("anthropic:claude-sonnet-4-5")).toBe(200_000);
});

it("a summary model that cannot be built is a usage error naming the setting and its file", async () => {
  const settings = resolveSettings(
    layers(undefined, { compaction: { model: "nosuch" } }),
    {},
    {},
    {
      trusted: true,
    },
  );
  const built = wireCompaction(settings, {});
  await expect(built).rejects.toThrow(UsageError);
  await expect(wireCompaction(settings, {})).rejects.toThrow(
    /^compaction\.model \(from agentry\.json\): Unknown model "nosuch"/,
  );
});

it("an untrusted project's summary model on another endpoint than the run's is withheld", () => {
  const loaded = layers(undefined, { compaction: { model: "openai:gpt-5.5" } });
  const settings = resolveSettings(loaded, {}, { ANTHROPIC_API_KEY: "k" });
  expect(settings.compaction.model).toBeUndefined();
  expect(settings.withheld).toEqual([
    expect.objectContaining({
      source: "agentry.json",
      setting: "compaction.model openai:gpt-5.5",
      kind: "untrusted",
    }),
  ]);
  expect(
    resolveSettings(loaded, {}, { ANTHROPIC_API_KEY: "k" }, { trusted: true }).compaction.model?.value,
  ).toBe("openai:gpt-5.5");
});
