import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentRegistry } from "../../src/agents/agent-registry.ts";
import { loadAgentDefinitions } from "../../src/agents/discover.ts";
import { spawnableAgents } from "../../src/subagents/spawnable-agents.ts";
import { tempDir } from "../support/temp-dir.ts";

describe("remote (url) agents", () => {
  it("load with a warning, are not offered to task, and are not widened into local agents", async () => {
    const project = await tempDir("agentry-remote-");
    await mkdir(join(project, ".agentry", "agents"), { recursive: true });
    await writeFile(
      join(project, ".agentry", "agents", "far.md"),
      "---\nname: far\ndescription: a remote helper\nurl: https://agents.example.com/far\n---\nremote\n",
    );
    const loaded = await loadAgentDefinitions({ projectDir: project, homeDir: project });
    const diagnostic = loaded.diagnostics.find((d) => d.file.endsWith("far.md"));
    expect(diagnostic?.severity).toBe("warning");
    expect(diagnostic?.message).toContain("remote (A2A) agents are not supported");
    const registry = new AgentRegistry(loaded);
    expect(registry.get("far")?.url).toBe("https://agents.example.com/far");
    expect(spawnableAgents(registry, []).map((d) => d.name)).not.toContain("far");
  });
});
