import { PROVIDERS } from "../../model/model-id.ts";
import { priceOf } from "../../model/pricing.ts";

/** Providers whose models agentry lists (in its price table); others take any model name. */
const CATALOGUED = new Set(["anthropic", "openai"]);

/**
 * Why a normalized model id (`provider:model`) cannot work, found when the file loads rather than when
 * the agent first starts: a provider agentry does not have (`google/gemini-2.5-pro`), or an Anthropic
 * or OpenAI model it does not know (a retired `claude-3-opus`, a typo). Aliases are checked by config.
 */
export function modelProblem(id: string): { message: string; action: string } | undefined {
  const colon = id.indexOf(":");
  if (colon <= 0) return undefined;
  const provider = id.slice(0, colon);
  if (!(PROVIDERS as readonly string[]).includes(provider)) {
    return {
      message: `model "${id}" names provider ${provider}, which agentry does not have (${PROVIDERS.join(", ")})`,
      action: `kept it; the agent fails to start unless agentry.json configures an openai-compatible endpoint named ${provider}`,
    };
  }
  if (CATALOGUED.has(provider) && priceOf(id) === undefined) {
    return {
      message: `model "${id}" is not among the ${provider} models agentry knows`,
      action: `kept it; the agent fails at its first call if ${provider} has no such model (an alias such as sonnet or opus always works)`,
    };
  }
  return undefined;
}
