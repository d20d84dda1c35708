/**
 * A model as a peer's file names it, in agentry's spelling, or why it cannot be used. Claude Code
 * writes aliases (`opus`) or bare Claude ids (`claude-sonnet-4-5`); OpenCode `provider/model`; Codex
 * a bare model of its `model_provider` (OpenAI unless it says otherwise).
 */
export function claudeModel(model: string): string | { ignored: string } {
  const id = model.trim();
  if (id === "default" || id === "opusplan") return { ignored: `model "${id}" is Claude Code's own choice` };
  if (/[:/]/.test(id) || /^(opus|sonnet|haiku)$/.test(id)) return id;
  if (id.startsWith("claude-")) return `anthropic:${id}`;
  return { ignored: `model "${id}" is not a Claude model id agentry knows how to reach` };
}

export function openCodeModel(model: string): string | { ignored: string } {
  const id = model.trim();
  return id.includes("/") || id.includes(":")
    ? id
    : { ignored: `model "${id}" names no provider (OpenCode writes provider/model)` };
}

const CODEX_PROVIDERS: Record<string, string> = { openai: "openai", ollama: "ollama", oss: "ollama" };

export function codexModel(model: string, provider: string | undefined): string | { ignored: string } {
  const id = model.trim();
  if (id.includes(":")) return id;
  const ours = CODEX_PROVIDERS[provider ?? "openai"];
  return ours === undefined
    ? {
        ignored: `model "${id}" of model_provider "${provider}": configure that endpoint in agentry's providers`,
      }
    : `${ours}:${id}`;
}
