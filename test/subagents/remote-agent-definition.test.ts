import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentRegistry } from "../../src/agents/agent-registry.ts";
import { CARD_DESCRIPTION } from "../../src/agents/definition.ts";
import { loadAgentDefinitions } from "../../src/agents/discover.ts";
import { spawnableAgents } from "../../src/subagents/spawn/spawnable-agents.ts";
import { tempDir } from "../support/temp-dir.ts";

describe("remote (url) agents", () => {
  it("load without a warning and are offered to task, with their url and headers", async () => {
    const project = await tempDir("agentry-remote-");
    await mkdir(join(project, ".agentry", "agents"), { recursive: true });
    await writeFile(
      join(project, ".agentry", "agents", "far.md"),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VARIABLE}, as agent files write it
      "---\nname: far\ndescription: a remote helper\nurl: https://agents.example.com/far\nheaders:\n  Authorization: Bearer ${FAR_TOKEN}\n---\n",
    );
    const loaded = await loadAgentDefinitions({ projectDir: project, homeDir: project });
    expect(loaded.diagnostics.filter((d) => d.file.endsWith("far.md"))).toEqual([]);
    const registry = new AgentRegistry(loaded);
    expect(registry.get("far")).toMatchObject({
      url: "https://agents.example.com/far",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${VARIABLE}, as agent files write it
      headers: { Authorization: "Bearer ${FAR_TOKEN}" },
    });
    expect(spawnableAgents(registry, []).map((d) => d.name)).toContain("far");
  });

  it("refuse a url that is not http(s), naming the key", async () => {
    const project = await tempDir("agentry-remote-");
    await mkdir(join(project, ".agentry", "agents"), { recursive: true });
    await writeFile(
      join(project, ".agentry", "agents", "far.md"),
      "---\nname: far\ndescription: a remote helper\nurl: file:///etc/passwd\n---\n",
    );
    const loaded = await loadAgentDefinitions({ projectDir: project, homeDir: project });
    const diagnostic = loaded.diagnostics.find((d) => d.file.endsWith("far.md"));
    expect(diagnostic).toMatchObject({ severity: "error" });
    expect(diagnostic?.message).toContain("url must be an absolute http(s) URL");
    expect(new AgentRegistry(loaded).get("far")).toBeUndefined();
  });

  it("may leave out description (its card gives it in a run); a local agent still may not", async () => {
    const project = await tempDir("agentry-remote-");
    await mkdir(join(project, ".agentry", "agents"), { recursive: true });
    await writeFile(
      join(project, ".agentry", "agents", "far.md"),
      "---\nname: far\nurl: https://agents.example.com/far\n---\n",
    );
    await writeFile(join(project, ".agentry", "agents", "near.md"), "---\nname: near\n---\nDo things.\n");
    const loaded = await loadAgentDefinitions({ projectDir: project, homeDir: project });
    const registry = new AgentRegistry(loaded);
    expect(registry.get("far")?.description).toBe(CARD_DESCRIPTION);
    expect(registry.get("near")).toBeUndefined();
    expect(loaded.diagnostics.find((d) => d.file.endsWith("near.md"))?.message).toContain("no description");
  });
});
