import type { AgentCard } from "@a2a-js/sdk";
import type { ServedAgentInfo } from "./served-agents.ts";

/** The security scheme every served card names: a bearer token in `Authorization`. */
export const BEARER_SCHEME = "bearer";

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
    skills: [],
    signatures: [],
    iconUrl: undefined,
  };
}
