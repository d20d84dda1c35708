// The A2A client, as the CLI and the library use it: the placement of remote children, and what a
// remote agent's card says of it.

export { a2aPlacement } from "./a2a-placement.ts";
export { cardDescription } from "./agent-card.ts";
export { describeFromCards } from "./card-descriptions.ts";
export type { RemoteAgentOptions } from "./remote-agent.ts";
