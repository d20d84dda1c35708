import type { AgentRegistry } from "../../agents/agent-registry.ts";
import { type AgentDefinition, CARD_DESCRIPTION } from "../../agents/definition.ts";
import { describeRemoteFailure } from "../remote-errors.ts";
import { cardDescription } from "./agent-card.ts";
import type { RemoteAgent } from "./remote-agent.ts";

/**
 * Gives each remote agent whose file has no description the one its agent card gives, fetching the
 * cards at once (each bounded by the client's timeout, and cached: the run's calls reuse them). An
 * agent whose card cannot be read keeps `CARD_DESCRIPTION` and is reported through `warn`.
 */
export async function describeFromCards(
  registry: AgentRegistry,
  agentOf: (definition: AgentDefinition) => RemoteAgent,
  warn: (message: string) => void,
): Promise<void> {
  const pending = registry.list().filter((d) => d.url !== undefined && d.description === CARD_DESCRIPTION);
  await Promise.all(
    pending.map(async (definition) => {
      try {
        const card = await agentOf(definition).card();
        registry.register({ ...definition, description: cardDescription(card) }, "its agent card");
      } catch (error) {
        warn(
          `agent "${definition.name}" has no description and its card could not be read (${describeRemoteFailure(definition.url ?? "", error)}); it is offered as "${CARD_DESCRIPTION}"`,
        );
      }
    }),
  );
}
