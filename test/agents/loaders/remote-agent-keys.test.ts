import { describe, expect, it } from "vitest";
import { CARD_DESCRIPTION } from "../../../src/agents/definition.ts";
import { loadAgentryAgent } from "../../../src/agents/loaders/agentry.ts";

// A remote (A2A) agent's `url` and `headers` come from a repository's agent file: untrusted input.
// What the loader keeps is what `task` will connect to and send.

const PATH = "/project/.agentry/agents/far.md";

function load(lines: string): ReturnType<typeof loadAgentryAgent> {
  return loadAgentryAgent(`---\nname: far\ndescription: a remote helper\n${lines}\n---\n`, PATH);
}

describe("a remote agent's url", () => {
  it.each(["https://agents.example.com/far", "http://127.0.0.1:8080/a2a"])("keeps %s", (url) => {
    const { definition, diagnostics } = load(`url: ${url}`);
    expect(diagnostics).toEqual([]);
    expect(definition?.url).toBe(url);
  });

  it.each([
    ["another scheme", "ftp://agents.example.com/far"],
    ["a scheme that ends like https", "xhttps://agents.example.com/far"],
    ["a file", "file:///etc/passwd"],
    ["a relative path", "agents/far"],
    ["a number", "8080"],
    ["a list", "[https://agents.example.com/far]"],
  ])("refuses %s, skipping the file", (_, url) => {
    const { definition, diagnostics } = load(`url: ${url}`);
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({ severity: "error", line: 4, message: "url must be an absolute http(s) URL" }),
    ]);
  });
});

describe("a remote agent's headers", () => {
  it("keeps a map of names to strings", () => {
    const { definition, diagnostics } = load(
      "url: https://agents.example.com/far\nheaders:\n  Authorization: Bearer t\n  X-Team: core",
    );
    expect(diagnostics).toEqual([]);
    expect(definition?.headers).toEqual({ Authorization: "Bearer t", "X-Team": "core" });
  });

  it.each([
    ["a string", "headers: Bearer t"],
    ["null", "headers: null"],
    ["a list of maps", "headers:\n  - Authorization: Bearer t"],
    ["a list of strings", "headers:\n  - Bearer t"],
    ["a number as a value", "headers:\n  X-Retries: 3"],
    ["one value of several not a string", "headers:\n  Authorization: Bearer t\n  X-Retries: 3"],
  ])("refuses %s, skipping the file", (_, headers) => {
    const { definition, diagnostics } = load(`url: https://agents.example.com/far\n${headers}`);
    expect(definition).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        line: 5,
        message: "headers must map header names to strings",
      }),
    ]);
  });
});

describe("a remote agent's description", () => {
  const remote = (...lines: string[]) =>
    loadAgentryAgent(
      ["---", "name: far", "url: https://agents.example.com/far", ...lines, "---", ""].join("\n"),
      PATH,
    );

  it.each([
    ["none", []],
    ["a blank one", ['description: "  "']],
  ])("is its card's when the file gives %s", (_, lines) => {
    const { definition, diagnostics } = remote(...lines);
    expect(diagnostics).toEqual([]);
    expect(definition?.description).toBe(CARD_DESCRIPTION);
  });

  it("is the file's when it gives one", () => {
    expect(remote("description: a remote helper").definition?.description).toBe("a remote helper");
  });
});
