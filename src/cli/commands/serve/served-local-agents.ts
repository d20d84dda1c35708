import type { AgentConfig } from "../../../agent/config.ts";
import { Session } from "../../../agent/session/session.ts";
import { newSessionId } from "../../../agent/session/session-id.ts";
import type { AgentDefinition } from "../../../agents/definition.ts";
import type { Model } from "../../../model/model.ts";
import type { ServedAgents } from "../../../remote/serve/served-agents.ts";
import type { CallerScope, SubagentRuntime } from "../../../subagents/index.ts";
import { isSpawnTool, spawnableAgents } from "../../../subagents/index.ts";
import { buildChild, inProcessExecutor } from "../../../subagents/placement.ts";

export interface ServedLocalAgentsOptions {
  /** The wired root of `agentry serve`: its tools, gate (the permission mode), sandbox and runtime. */
  root: AgentConfig;
  runtime: SubagentRuntime;
  createModel: (id: string) => Model;
  warn: (message: string) => void;
}

/**
 * The agents `agentry serve` offers: every local agent the root may spawn (built-in and from agent
 * files; remote ones are not served again). Each A2A conversation is a child of the serve root, built
 * as `task` builds one — its definition's tools, rules under the root's, the root's sandbox, its own
 * persisted session, the runtime's limits — and run by the in-process executor. Its own children go
 * through the runtime like any other.
 */
export function servedLocalAgents(options: ServedLocalAgentsOptions): ServedAgents {
  const { root, runtime } = options;
  const definitions = spawnableAgents(runtime.registry, runtime.gate.rules).filter(
    (d) => d.url === undefined,
  );
  const caller: CallerScope = {
    tools: root.tools.filter((tool) => !isSpawnTool(tool.name)),
    gate: runtime.gate,
    model: root.model,
    ops: root.ops,
    ...(root.commands === undefined ? {} : { commands: root.commands }),
    ...(root.toolOutputLimit === undefined ? {} : { toolOutputLimit: root.toolOutputLimit }),
    ...(root.redact === undefined ? {} : { redact: root.redact }),
  };
  const counts = new Map<string, number>();
  return {
    agents: definitions.map((d) => ({ name: d.name, description: d.description })),
    async open(name, { resume }) {
      const definition = definitions.find((d) => d.name === name);
      if (definition === undefined) throw new Error(`agent "${name}" is not served`);
      const model = modelOf(definition, root.model, options.createModel);
      const count = (counts.get(name) ?? 0) + 1;
      counts.set(name, count);
      const path = ["serve", `${name}-${count}`];
      const taskId = resume ?? newSessionId({ prefix: "a2a" });
      const local = await buildChild(
        {
          baseRules: runtime.gate.rules,
          baseTools: runtime.baseTools,
          limits: runtime.limits,
          spawnKitFor: runtime.spawnKitFor,
          warn: options.warn,
          ...(runtime.instructions === undefined ? {} : { instructions: runtime.instructions }),
        },
        caller,
        { definition, model, taskId, path, depth: 1, parentWorkspace: root.workspace },
        // A context taken up again continues its transcript: the history of an idle context the server
        // let go of, or of an earlier server's.
        () =>
          resume === undefined
            ? Session.create({ workspace: root.workspace, agentName: name, model: model.id, id: taskId })
            : Session.resume(root.workspace, resume),
      );
      return {
        executor: inProcessExecutor(local, options.warn),
        agentPath: path,
        sessionId: local.session.id,
        model: model.id,
      };
    },
  };
}

function modelOf(definition: AgentDefinition, rootModel: Model, createModel: (id: string) => Model): Model {
  const id = definition.model?.trim();
  return id === undefined || id.toLowerCase() === "inherit" ? rootModel : createModel(id);
}
