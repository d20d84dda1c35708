import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../../src/agents/diagnostics.ts";
import { loadAgentFile } from "../../../src/agents/loaders/load-agent-file.ts";

/**
 * How an agent file's `model:` is normalised to agentry's `provider:model` or an alias, as Claude Code,
 * OpenCode and Codex write it, and what the user is told when it cannot be placed. The key is on line 3.
 */

function loadModel(written: string) {
  const text = `---\ndescription: Reviews code.\nmodel: ${written}\n---\nReview the change.\n`;
  const { definition, diagnostics } = loadAgentFile(text, "/p/.agentry/agents/reviewer.md", {
    format: "agentry",
  });
  return { loaded: definition !== undefined, model: definition?.model, said: asLines(diagnostics) };
}

/** Each diagnostic with the line it points at: a warning on the wrong line sends the user elsewhere. */
function asLines(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.severity} (line ${d.line}): ${d.message} → ${d.action}`);
}

describe("an agent file's model", () => {
  it.each([
    ["an alias, without the spaces around it", '" sonnet "', "sonnet"],
    ["an alias in capitals, in lower case", "OPUS", "opus"],
    ["OpenCode's provider/model", "anthropic/claude-sonnet-4-5", "anthropic:claude-sonnet-4-5"],
    ["provider/model whose model has a colon (an Ollama tag)", "ollama/qwen3:8b", "ollama:qwen3:8b"],
    [
      "provider:model whose model has a slash, as written",
      "openai-compatible:local/llama",
      "openai-compatible:local/llama",
    ],
    ["provider:model, as written", "openai:gpt-5", "openai:gpt-5"],
    ["Claude Code's bare claude- name, as Anthropic's", "claude-sonnet-4-5", "anthropic:claude-sonnet-4-5"],
    ["Codex's bare gpt- name, as OpenAI's", "gpt-5", "openai:gpt-5"],
    ["a bare o-series name, as OpenAI's", "o3", "openai:o3"],
  ])("reads %s", (_behaviour, written, model) => {
    expect(loadModel(written)).toEqual({ loaded: true, model, said: [] });
  });

  it.each([
    ["inherit", "inherit"],
    ["an empty model", '""'],
  ])("gives the agent no model of its own for %s, silently", (_behaviour, written) => {
    expect(loadModel(written)).toEqual({ loaded: true, model: undefined, said: [] });
  });

  it.each([
    ["a name with gpt- not at its start", "my-gpt-4", "my-gpt-4"],
    ["a colon with no provider before it", '":gpt-5"', ":gpt-5"],
    ["a slash with no provider before it", '"/gpt-5"', "/gpt-5"],
  ])("keeps %s as written and warns that config must define it", (_behaviour, written, model) => {
    expect(loadModel(written)).toEqual({
      loaded: true,
      model,
      said: [
        `warning (line 3): model "${model}" is not an alias (sonnet, opus, haiku, inherit) or a provider:model id → kept it as written; config must define it as an alias`,
      ],
    });
  });

  it("points at the model line when it names a provider agentry does not have", () => {
    expect(loadModel("google/gemini-2.5-pro").said).toEqual([
      'warning (line 3): model "google:gemini-2.5-pro" names provider google, which agentry does not have (anthropic, openai, ollama, openai-compatible) → kept it; the agent fails to start unless agentry.json configures an openai-compatible endpoint named google',
    ]);
  });

  it("ignores a model that is not a string, and says so", () => {
    expect(loadModel("5")).toEqual({
      loaded: true,
      model: undefined,
      said: ["warning (line 3): model: not a string → ignored key model"],
    });
  });
});
