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

  it("fails the file when the value cannot be read, instead of dropping the limit", () => {
    const result = loadAgentFile(
      agent("allowedHosts: [https://x.com/path]"),
      "/p/.agentry/agents/fetcher.md",
      {
        format: "agentry",
      },
    );
    expect(result.definition).toBeUndefined();
    expect(result.diagnostics.map((d) => d.message).join("\n")).toMatch(
      /allowedHosts must be a list of host names/,
    );
  });
});
