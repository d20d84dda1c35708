import { describe, expect, it } from "vitest";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";

const agent = (extra: string) => `---\nname: fetcher\ndescription: Fetches docs.\n${extra}\n---\nFetch.\n`;

describe("allowedHosts in an agent file", () => {
  it("is read under its spellings as the agent's own, narrower, network list", () => {
    for (const key of ["allowedHosts", "allowed-hosts", "network"]) {
      const result = loadAgentFile(
        agent(`${key}: [docs.python.org, "*.github.com"]`),
        "/p/.agentry/agents/fetcher.md",
        {
          format: "agentry",
        },
      );
      expect(result.definition?.allowedHosts, key).toEqual(["docs.python.org", "*.github.com"]);
    }
  });

  it.each([
    ["a single host", "allowedHosts: registry.npmjs.org", ["registry.npmjs.org"]],
    [
      "hosts without the spaces around them",
      'allowedHosts: [" docs.python.org ", "*.github.com "]',
      ["docs.python.org", "*.github.com"],
    ],
    ["an empty list as no host at all", "allowedHosts: []", []],
  ])("reads %s", (_behaviour, line, hosts) => {
    const result = loadAgentFile(agent(line), "/p/.agentry/agents/fetcher.md", { format: "agentry" });
    expect(result.definition?.allowedHosts).toEqual(hosts);
    expect(result.diagnostics).toEqual([]);
  });

  it.each([
    ["a URL", "allowedHosts: [https://x.com/path]"],
    ["one URL among hosts", 'allowedHosts: [docs.python.org, "https://x.com/"]'],
    ["a number", "allowedHosts: [5]"],
    ["a map", "allowedHosts: { docs.python.org: true }"],
  ])("fails the file for %s, instead of dropping the limit", (_behaviour, line) => {
    const result = loadAgentFile(agent(line), "/p/.agentry/agents/fetcher.md", { format: "agentry" });
    expect(result.definition).toBeUndefined();
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        severity: "error",
        line: 4,
        message: "allowedHosts must be a list of host names such as registry.npmjs.org or *.github.com",
        action: "skipped the file",
      }),
    ]);
  });
});
