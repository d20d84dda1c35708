import type { Session } from "../../agent/session/session.ts";
import type { AgentDefinition } from "../../agents/definition.ts";
import type { Model } from "../../model/model.ts";
import type { ExecutorRef } from "../../tasks/task-record.ts";
import { ToolError } from "../../tools/tool.ts";
import type { ChildIdentity } from "../child/child.ts";
import { type BuildDeps, type ChildSetup, describeChild } from "../child/child-config.ts";
import { childFromSpec, inProcessHost } from "../child/child-from-spec.ts";
import type { ChildSpec, LoopChildSpec } from "../child/child-spec.ts";
import { prepareChildWorkspace, workspaceOptions } from "../child/child-workspace.ts";
import type { CallerScope } from "../tree/caller-scope.ts";
import type { ChildExecutor } from "./executor.ts";
import { inProcessExecutor } from "./in-process-executor.ts";

/**
 * Where a child runs. A tree has an ordered list of placements — a remote agent's (`src/remote/`), a
 * queue of workers (`src/queue/`), this process (`localPlacement`, always last) — and each child
 * runs where the first that takes its spec puts it (`choosePlacement`). The tree keeps the child's
 * state, record and (for a loop child) transcript wherever it runs.
 */
export interface ChildPlacement {
  /** `local`, `queue`, `a2a` …: for messages. */
  readonly kind: string;
  /** Whether it runs this child. */
  takes(spec: ChildSpec): boolean;
  /**
   * Whether it can follow an activation another process started from its record's `ref` (a remote
   * task, a queued job): such a child is taken up again when its session's next run starts.
   */
  follows?(ref: ExecutorRef): boolean;
  /** Makes what the child needs where it runs, and its executor. */
  open(opening: ChildOpening): Promise<PlacedChild>;
}

/** What placing one child takes: its spec, and what stays in its parent's process. */
export interface ChildOpening {
  spec: ChildSpec;
  /** Its definition as resolved here: what never travels (its inline MCP servers). */
  definition: AgentDefinition;
  /** Its caller: in this process, the caller's tools, gate and sandbox are what the child narrows. */
  caller: CallerScope;
  /** The model the parent resolved for a loop child, built already (what `spec.model` names). */
  model?: Model;
  /** Its transcript (a loop child): created for a new child, resumed for one known from its record. */
  session(spec: LoopChildSpec): Promise<Session>;
  /** Where its last activation ran, from its record (a child rebuilt after a restart). */
  ref?: ExecutorRef;
}

/** A child placed: its executor, and what its tree keeps of it. */
export interface PlacedChild {
  executor: ChildExecutor;
  /** What it runs on, for its record and events: `provider:model`, or where a remote agent is (`a2a:…`). */
  model: string;
  /** Its transcript when its tree keeps its conversation (a loop child): a fork's history goes there. */
  session?: Session;
  /** Undoes what `open` made (its workspace), for a child refused before it ever ran. */
  discard(): Promise<void>;
}

/** The first placement of `placements` that takes the child; a child none takes is refused, saying why. */
export function choosePlacement(placements: readonly ChildPlacement[], spec: ChildSpec): ChildPlacement {
  const placement = placements.find((candidate) => candidate.takes(spec));
  if (placement !== undefined) return placement;
  throw new ToolError(
    spec.kind === "remote"
      ? `Agent "${spec.agent.name}" is a remote (A2A) agent at ${spec.agent.url}, and this runtime was started without a placement for remote agents, so it cannot call it. Use another agent.`
      : `Agent "${spec.agent.name}" has nowhere to run: no placement of this runtime takes it. Use another agent.`,
  );
}

/** A child described and placed: who it is (for its `Child`), its executor, its transcript. */
export interface OpenedChild {
  identity: ChildIdentity;
  executor: ChildExecutor;
  /** Its transcript, when its tree keeps its conversation. */
  session?: Session;
  discard(): Promise<void>;
}

/**
 * Describes a child once (`describeChild`), gives it to the first placement that takes it and opens
 * it there: the one path of every child, new (`task`) or known from its record (a continuation after a
 * restart, a task taken up again).
 */
export async function placeChild(
  deps: { build: BuildDeps; placements: readonly ChildPlacement[] },
  caller: CallerScope,
  setup: ChildSetup,
  how: Pick<ChildIdentity, "description" | "parentAgentId"> &
    Pick<ChildOpening, "session" | "ref"> & {
      /** It is opened to follow its `ref`: the placement that takes it must be able to. */
      follow?: true;
    },
): Promise<OpenedChild> {
  const described = describeChild(deps.build, caller, setup);
  const traceparent = deps.build.traceparentFor?.(described.agentPath, how.description);
  const spec: ChildSpec = traceparent === undefined ? described : { ...described, traceparent };
  const placement = choosePlacement(deps.placements, spec);
  if (how.follow === true && (how.ref === undefined || placement.follows?.(how.ref) !== true))
    throw new Error(`where it ran (${how.ref?.kind ?? "nowhere known"}) is not where this run places it`);
  const placed = await placement.open({
    spec,
    definition: setup.definition,
    caller,
    ...(setup.model === undefined ? {} : { model: setup.model }),
    session: how.session,
    ...(how.ref === undefined ? {} : { ref: how.ref }),
  });
  return {
    identity: {
      taskId: spec.taskId,
      definition: setup.definition,
      description: how.description,
      parentSessionId: spec.parentSessionId,
      parentAgentId: how.parentAgentId,
      agentPath: spec.agentPath,
      sessionId: placed.session?.id ?? spec.sessionId,
      model: placed.model,
      maxTurns: spec.limits.maxTurns,
    },
    executor: placed.executor,
    ...(placed.session === undefined ? {} : { session: placed.session }),
    discard: placed.discard,
  };
}

/**
 * This process: a loop child is made from its spec under its caller (`inProcessHost`) in its own
 * workspace (`shared`, `isolated` or a `worktree` here), and run by the in-process executor. Every tree
 * ends its placements with it.
 */
export function localPlacement(
  deps: Pick<BuildDeps, "baseTools" | "spawnKitFor" | "compaction" | "warn">,
): ChildPlacement {
  return {
    kind: "local",
    takes: (spec) => spec.kind === "loop",
    async open(opening: ChildOpening): Promise<PlacedChild> {
      const { spec, model } = loopChild(opening);
      const workspace = await prepareChildWorkspace(workspaceOptions(spec));
      const local = await childFromSpec(
        spec,
        inProcessHost(deps, opening.caller, model, opening.definition),
        workspace,
        () => opening.session(spec),
      );
      return {
        executor: inProcessExecutor(local, deps.warn),
        model: spec.model,
        session: local.session,
        discard: async () => {
          await local.workspace.finish();
        },
      };
    },
  };
}

/** The spec and model of a child a loop placement took (the runtime opens a loop child with its model). */
export function loopChild(opening: ChildOpening): { spec: LoopChildSpec; model: Model } {
  const { spec, model } = opening;
  if (spec.kind !== "loop" || model === undefined)
    throw new Error(`agent "${spec.agent.name}" is not a child this placement runs`);
  return { spec, model };
}
