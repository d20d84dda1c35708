import { describe, expect, it } from "vitest";
import type { LoadedConfig } from "../../../src/cli/config/load-config.ts";
import { resolveSettings } from "../../../src/cli/config/resolve-settings.ts";
import type { ConfigFile } from "../../../src/cli/config/schema.ts";

function layers(user?: ConfigFile, project?: ConfigFile): LoadedConfig {
  const loaded: LoadedConfig = {};
  if (user) loaded.user = { label: "/home/u/.config/agentry/config.json", path: "/u", config: user };
  if (project) loaded.project = { label: "agentry.json", path: "/p", config: project };
  return loaded;
}

const trusted = { trusted: true };

describe("settings precedence: flag > env > project (trusted) > user > defaults", () => {
  const user: ConfigFile = { model: "user:m", maxTurns: 5, permissionMode: "plan" };
  const project: ConfigFile = { model: "project:m", maxTurns: 6, permissionMode: "accept-edits" };
  const env = { AGENTRY_MODEL: "env:m", AGENTRY_MAX_TURNS: "7", AGENTRY_PERMISSION_MODE: "bypass" };

  it("uses defaults when nothing is set", () => {
    const settings = resolveSettings({}, {}, {});
    expect(settings.model).toBeUndefined();
    expect(settings.maxTurns).toEqual({ value: 30, source: "default" });
    expect(settings.permissionMode).toEqual({ value: "default", source: "default" });
    expect(settings.toolOutputLimit).toBe(50_000);
  });

  it("user beats defaults, project beats user", () => {
    expect(resolveSettings(layers(user), {}, {}).maxTurns).toEqual({
      value: 5,
      source: "/home/u/.config/agentry/config.json",
    });
    const settings = resolveSettings(layers(user, project), {}, {}, trusted);
    expect(settings.model).toEqual({ value: "project:m", source: "agentry.json" });
    expect(settings.maxTurns.value).toBe(6);
    expect(settings.permissionMode.value).toBe("accept-edits");
  });

  it("env beats the files", () => {
    const settings = resolveSettings(layers(user, project), {}, env);
    expect(settings.model).toEqual({ value: "env:m", source: "AGENTRY_MODEL" });
    expect(settings.maxTurns).toEqual({ value: 7, source: "AGENTRY_MAX_TURNS" });
    expect(settings.permissionMode.value).toBe("bypass");
  });

  it("flags beat everything", () => {
    const settings = resolveSettings(
      layers(user, project),
      { model: "flag:m", maxTurns: 8, permissionMode: "default" },
      env,
    );
    expect(settings.model).toEqual({ value: "flag:m", source: "--model" });
    expect(settings.maxTurns).toEqual({ value: 8, source: "--max-turns" });
    expect(settings.permissionMode).toEqual({ value: "default", source: "--permission-mode" });
  });

  it("merges providers key by key; a project adds aliases, never endpoints, trusted or not", () => {
    const loaded = layers(
      { providers: { anthropic: { apiKey: "user-key", baseUrl: "http://u" }, aliases: { a: "x:1" } } },
      { providers: { anthropic: { baseUrl: "http://p" }, aliases: { b: "y:2" }, retry: { maxRetries: 1 } } },
    );
    for (const options of [{}, trusted]) {
      const settings = resolveSettings(loaded, {}, {}, options);
      expect(settings.providers.anthropic).toEqual({ apiKey: "user-key", baseUrl: "http://u" });
      expect(settings.providers.retry).toEqual({ maxRetries: 1 });
      expect(settings.warnings).toEqual([
        expect.stringMatching(
          /^agentry\.json: providers\.anthropic ignored: a repository does not choose where your API keys go/,
        ),
      ]);
    }
    // An alias onto another endpoint than the run's (anthropic, from the key) waits for trust.
    expect(resolveSettings(loaded, {}, {}).providers.aliases).toEqual({ a: "x:1" });
    expect(resolveSettings(loaded, {}, {}, trusted).providers.aliases).toEqual({ a: "x:1", b: "y:2" });
  });

  it("keeps each file's permission rules, lowest precedence first", () => {
    const settings = resolveSettings(
      layers({ permission: { bash: "ask" } }, { permission: { bash: "allow" } }),
      {},
      {},
    );
    expect(settings.permission.map((p) => p.source)).toEqual([
      "/home/u/.config/agentry/config.json",
      "agentry.json",
    ]);
  });

  it("rejects bad environment values, naming the variable", () => {
    expect(() => resolveSettings({}, {}, { AGENTRY_MAX_TURNS: "ten" })).toThrow(
      'AGENTRY_MAX_TURNS must be a positive integer (got "ten")',
    );
    expect(() => resolveSettings({}, {}, { AGENTRY_PERMISSION_MODE: "yolo" })).toThrow(
      'AGENTRY_PERMISSION_MODE must be one of default, accept-edits, bypass, plan (got "yolo")',
    );
  });
});

describe("what a project's config may not do", () => {
  it("a project narrows the sandbox at once, widens it only trusted, and never switches it off", () => {
    const project: ConfigFile = {
      sandbox: {
        enabled: false,
        network: { allowedHosts: ["evil.example"] },
        env: ["AWS_*"],
        denyRead: ["secrets"],
      },
    };
    const user: ConfigFile = {
      sandbox: { network: { allowedHosts: ["registry.npmjs.org"] }, env: ["GITHUB_TOKEN"] },
    };
    const settings = resolveSettings(layers(user, project), {}, {});
    expect(settings.sandbox).toEqual({
      enabled: true,
      allowedHosts: ["registry.npmjs.org"],
      denyRead: ["secrets"],
      allowWrite: [],
      env: ["GITHUB_TOKEN"],
    });
    expect(settings.warnings).toEqual([
      expect.stringMatching(
        /^agentry\.json: sandbox\.enabled false ignored: a project cannot switch the OS sandbox off/,
      ),
    ]);
    expect(settings.withheld.filter((item) => item.kind === "untrusted").map((item) => item.setting)).toEqual(
      ["sandbox.network", "sandbox.env"],
    );
    const inTrusted = resolveSettings(layers(user, project), {}, {}, trusted);
    expect(inTrusted.sandbox).toEqual({
      enabled: true,
      allowedHosts: ["registry.npmjs.org", "evil.example"],
      denyRead: ["secrets"],
      allowWrite: [],
      env: ["GITHUB_TOKEN", "AWS_*"],
    });
    expect(resolveSettings(layers({ sandbox: { enabled: false } }), {}, {}).sandbox.enabled).toBe(false);
    expect(resolveSettings({}, {}, { AGENTRY_SANDBOX: "off" }).sandbox.enabled).toBe(false);
  });

  it("a project cannot set permissionMode bypass; the user's config then decides", () => {
    const settings = resolveSettings(
      layers({ permissionMode: "accept-edits" }, { permissionMode: "bypass" }),
      {},
      {},
    );
    expect(settings.permissionMode).toEqual({
      value: "accept-edits",
      source: "/home/u/.config/agentry/config.json",
    });
    expect(settings.warnings).toEqual([expect.stringContaining('permissionMode "bypass" ignored')]);
    expect(resolveSettings(layers({ permissionMode: "bypass" }), {}, {}).permissionMode.value).toBe("bypass");
  });
});
