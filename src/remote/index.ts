// `agentry-ai/remote`: the A2A client for library users — pass `a2aPlacement(...)` among the subagent
// runtime's `placements` and agents with a `url` run as remote children. A separate entry so that
// `import "agentry-ai"` does not load the A2A SDK.

export { a2aPlacement, type RemoteAgentOptions } from "./client/index.ts";
