// `agentry-ai/remote`: the A2A client for library users — pass `a2aExecutors(...)` as the subagent
// runtime's `remote` option and agents with a `url` run as remote children. A separate entry so that
// `import "agentry-ai"` does not load the A2A SDK.

export type { RemoteAgentOptions } from "./remote-agent.ts";
export { a2aExecutors } from "./remote-executors.ts";
