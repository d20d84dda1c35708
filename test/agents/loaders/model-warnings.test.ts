import { describe, expect, it } from "vitest";
import type { AgentFormat } from "../../../src/agents/definition.ts";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";
import { summarize } from "../fixtures.ts";

/** Issue 9: a model that cannot work is reported when the file loads, not when the agent first runs. */

function modelWarnings(format: AgentFormat, text: string) {
  const path = format === "codex" ? "/p/.codex/agents/a.toml" : "/p/agents/a.md";
  const { definition, diagnostics } = loadAgentFile(text, path, { format });
  return {
    model: definition?.model,
    warnings: summarize(diagnostics.filter((d) => d.severity === "warning" && d.message.includes("model"))),
  };
}

const md = (model: string) => `---\ndescription: d\nmodel: ${model}\n---\nPrompt.`;

describe("load-time model warnings", () => {
  it("warns about a provider agentry does not have", () => {
    expect(modelWarnings("opencode", md("google/gemini-2.5-pro"))).toEqual({
      model: "google:gemini-2.5-pro",
      warnings: [
        'warning: model "google:gemini-2.5-pro" names provider google, which agentry does not have (anthropic, openai, ollama, openai-compatible) → kept it; the agent fails to start unless agentry.json configures an openai-compatible endpoint named google',
      ],
    });
    const codex =
      'description = "d"\ndeveloper_instructions = "p"\nmodel = "gpt-5"\nmodel_provider = "azure"\n';
    expect(modelWarnings("codex", codex).warnings).toHaveLength(1);
  });

  it("warns about an Anthropic or OpenAI model agentry does not know", () => {
    expect(modelWarnings("claude", md("claude-3-opus-20240229"))).toEqual({
      model: "anthropic:claude-3-opus-20240229",
      warnings: [
        'warning: model "anthropic:claude-3-opus-20240229" is not among the anthropic models agentry knows → kept it; the agent fails at its first call if anthropic has no such model (an alias such as sonnet or opus always works)',
      ],
    });
    expect(modelWarnings("opencode", md("openai/gpt-3.5-turbo")).warnings).toHaveLength(1);
  });

  it.each([
    "sonnet",
    "inherit",
    "anthropic/claude-sonnet-4-5",
    "claude-sonnet-4-5-20250929",
    "openai:gpt-5.5",
    "ollama/qwen3",
    "openai-compatible:local/llama",
  ])("says nothing about %s", (model) => {
    expect(modelWarnings("claude", md(model)).warnings).toEqual([]);
  });
});
