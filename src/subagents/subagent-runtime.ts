import type { AgentConfig } from "../agent/config.ts";
import type { Session } from "../agent/session.ts";
import type { Model } from "../model/model.ts";
import {
  createPermissionGate,
  type PermissionGate,
  type PermissionGateOptions,
} from "../permissions/gate.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { AgentRegistry } from "./agent-registry.ts";
import type { CallerScope } from "./caller-scope.ts";
import type { ChildWorkspace } from "./child-workspace.ts";
import type { AgentDefinition } from "./definition.ts";
import { resolveLimits, type SubagentLimits } from "./limits.ts";
import { Semaphore } from "./semaphore.ts";

export interface SubagentOptions {
  /** The agents `task` may start. */
  registry: AgentRegistry;
  /** Builds a model from an id or alias (`sonnet`, `provider:model`); config aliases resolve here. */
  createModel: (id: string) => Model;
  /** The tools a definition's `tools` list picks from (the built-ins, MCP tools …). */
  baseTools: () => AnyTool[];
  /**
   * The root's permission gate, or what to build it from. Children get `gate.withRules(childRules)`,
   * so they share its mode, its prompt queue (asks reach the root's handler) and "always" approvals.
   */
  permission: PermissionGate | PermissionGateOptions;
  limits?: Partial<SubagentLimits>;
  /** Write children's transcripts under `<root workspace>/.agentry/sessions/` (default true). */
  persistSessions?: boolean;
}

/** One child that ran (or runs) in this tree, kept so `task_id` can continue it. */
export interface ChildRecord {
  taskId: string;
  definition: AgentDefinition;
  /** The caller's session: only it may continue this child. */
  parentSessionId: string;
  config: AgentConfig;
  session: Session;
  workspace: ChildWorkspace;
  running: boolean;
}

export class SubagentLimitError extends Error {
  override readonly name = "SubagentLimitError";
}

/**
 * The state one root shares with its whole tree: limits, the concurrency semaphore, the descendant
 * count, child numbering and the children by task_id.
 */
export class SubagentRuntime {
  readonly limits: SubagentLimits;
  readonly registry: AgentRegistry;
  readonly createModel: (id: string) => Model;
  readonly baseTools: () => AnyTool[];
  readonly gate: PermissionGate;
  readonly persistSessions: boolean;
  /** Where children's transcripts are stored: the root's workspace. */
  readonly sessionsWorkspace: string;
  /** Builds the `task` tool of an agent in this tree (injected to keep the modules acyclic). */
  readonly spawnToolFor: (caller: CallerScope) => AnyTool;
  private readonly slots: Semaphore;
  private descendants = 0;
  private readonly numbers = new Map<string, number>();
  private readonly children = new Map<string, ChildRecord>();

  constructor(
    options: SubagentOptions,
    sessionsWorkspace: string,
    spawnToolFor: (caller: CallerScope) => AnyTool,
  ) {
    this.limits = resolveLimits(options.limits);
    this.registry = options.registry;
    this.createModel = options.createModel;
    this.baseTools = options.baseTools;
    this.gate =
      typeof options.permission === "function"
        ? options.permission
        : createPermissionGate(options.permission);
    this.persistSessions = options.persistSessions ?? true;
    this.sessionsWorkspace = sessionsWorkspace;
    this.spawnToolFor = spawnToolFor;
    this.slots = new Semaphore(this.limits.maxConcurrent);
  }

  /** Children started so far (continuations not counted). */
  get started(): number {
    return this.descendants;
  }

  get running(): number {
    return this.slots.running;
  }

  get queued(): number {
    return this.slots.queued;
  }

  /** Counts a new child against `maxDescendants`; throws `SubagentLimitError` at the cap. */
  reserveDescendant(): void {
    if (this.descendants >= this.limits.maxDescendants) {
      throw new SubagentLimitError(
        `Refused: this run already started ${this.descendants} subagents, the limit per run (maxDescendants ${this.limits.maxDescendants}). ` +
          "Do the remaining work yourself, or continue an existing child with its task_id.",
      );
    }
    this.descendants++;
  }

  /** Gives back a reservation of a child that never started. */
  releaseDescendant(): void {
    this.descendants = Math.max(0, this.descendants - 1);
  }

  /** `explore` → 1, 2, 3 … unique in the tree, so agent paths never collide. */
  nextNumber(agentType: string): number {
    const next = (this.numbers.get(agentType) ?? 0) + 1;
    this.numbers.set(agentType, next);
    return next;
  }

  /** Waits (FIFO, abortable) for one of the `maxConcurrent` running slots; returns its release. */
  acquireSlot(signal: AbortSignal): Promise<() => void> {
    return this.slots.acquire(signal);
  }

  remember(record: ChildRecord): void {
    this.children.set(record.taskId, record);
  }

  child(taskId: string): ChildRecord | undefined {
    return this.children.get(taskId);
  }

  /** task_ids of the children `parentSessionId` started, for error messages. */
  childrenOf(parentSessionId: string): string[] {
    return [...this.children.values()]
      .filter((c) => c.parentSessionId === parentSessionId)
      .map((c) => c.taskId);
  }
}
