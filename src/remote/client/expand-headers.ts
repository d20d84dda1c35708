import { RemoteAgentError } from "../remote-errors.ts";

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * A remote agent's `headers` with every `${NAME}` replaced by that environment variable, so secrets
 * stay out of agent files. A variable that is not set (or empty) fails: sending the header without
 * it would be a request the agent refuses, or worse, one it takes as anonymous.
 */
export function expandHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  env: Readonly<Record<string, string | undefined>>,
  agentName: string,
): Record<string, string> {
  const expanded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    expanded[name] = value.replace(VARIABLE, (_, variable: string) => {
      const set = env[variable];
      if (set === undefined || set === "")
        throw new RemoteAgentError(
          `agent "${agentName}": header ${name} names \${${variable}}, but ${variable} is not set in the environment; set it, or remove the header from the agent file`,
          "user",
        );
      return set;
    });
  }
  return expanded;
}
