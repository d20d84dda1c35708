import { AgentCard } from "@a2a-js/sdk";
import type { ServedAgentInfo } from "./served-agents.ts";

/** The security scheme every served card names: a bearer token in `Authorization`. */
export const BEARER_SCHEME = "bearer";

/** The extension of the root card that lists every agent the server offers (docs/a2a.md). */
export const SERVED_AGENTS_EXTENSION =
  "https://github.com/agentry-ai/agentry/blob/main/docs/a2a.md#served-agents";

/** One agent of a server, as the root card lists it. */
export interface ServedAgentLink {
  name: string;
  description: string;
  /** Its URL: its JSON-RPC endpoint, its card under it. */
  url: string;
}

/**
 * The A2A v1.0 card of one served agent: JSON-RPC at `url`, streaming, and a bearer token required
 * (the card says so, and the server refuses every request without it, the card's included).
 */
export function servedCard(agent: ServedAgentInfo, url: string, version: string): AgentCard {
  return {
    name: agent.name,
    description: agent.description,
    supportedInterfaces: [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
    provider: { organization: "agentry", url: "https://github.com/agentry-ai/agentry" },
    version,
    documentationUrl: undefined,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      [BEARER_SCHEME]: {
        scheme: {
          $case: "httpAuthSecurityScheme",
          value: {
            description: "the token agentry serve printed or was given",
            scheme: "Bearer",
            bearerFormat: "",
          },
        },
      },
    },
    securityRequirements: [{ schemes: { [BEARER_SCHEME]: { list: [] } } }],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    // The agent is its one skill: A2A cards describe what an agent does as skills, and clients list them.
    skills: [
      {
        id: agent.name,
        name: agent.name,
        description: agent.description,
        tags: ["agentry", agent.name],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
    iconUrl: undefined,
  };
}

/**
 * A card as it goes on the wire: A2A's JSON form (`securitySchemes: {bearer: {httpAuthSecurityScheme:
 * …}}`), not the SDK's in-memory one (`{scheme: {$case, value}}`), which only the SDK reads back.
 */
export function cardJson(card: AgentCard): unknown {
  return AgentCard.toJSON(card);
}

/**
 * The card at the server's root (`/.well-known/agent-card.json`, where A2A recommends a client look):
 * the default agent's own card, whose interface is that agent's URL, plus an extension (not required)
 * naming every served agent and its URL, so a client that came to the root can find the others.
 */
export function rootCard(card: AgentCard, agents: readonly ServedAgentLink[]): AgentCard {
  return {
    ...card,
    capabilities: {
      ...card.capabilities,
      extensions: [
        ...(card.capabilities?.extensions ?? []),
        {
          uri: SERVED_AGENTS_EXTENSION,
          description: "agentry serve offers these agents, each at its own URL with its card under it",
          required: false,
          params: { agents: agents.map(({ name, description, url }) => ({ name, description, url })) },
        },
      ],
    },
  };
}
