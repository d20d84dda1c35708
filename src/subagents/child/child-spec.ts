import { isAbsolute, normalize } from "node:path";
import { z } from "zod";
import { isValidSessionId } from "../../agent/session/session-id.ts";
import { AGENT_NAME_PATTERN, WORKSPACE_MODES } from "../../agents/definition.ts";
import { PERMISSION_MODES } from "../../permissions/modes.ts";
import type { Ruleset } from "../../permissions/types.ts";
import { parseAllowedHosts } from "../../sandbox/network-hosts.ts";
import { hasControlCharacter } from "../../text/control-characters.ts";

/**
 * A child, described once by its parent (`describeChild`) and run from this description wherever it
 * runs: in the parent's process, on a queue worker, behind `agentry serve` (`childFromSpec`), or on a
 * remote agent. It says what the child is — its definition as resolved, its rules, the inputs of its
 * sandbox, its limits, its model, where it works, what its system prompt holds — and nothing of the
 * machine that runs it: each machine gives it its own tools, keys and sandbox, never wider than the
 * spec allows. Serialisable and versioned: a queue job carries it to machines of other versions, where
 * it is untrusted input (`loopChildSpecSchema` reads it as if it came from the internet). What it is
 * asked to do is not the child but one activation's input: a prompt and its images travel in the
 * conversation (a queue job's `history`, images inline), never in the spec.
 *
 * Bump `CHILD_SPEC_VERSION` when its shape changes; a reader refuses a version it does not know.
 */
export const CHILD_SPEC_VERSION = 1;

const noControl = (value: string) => !hasControlCharacter(value);
const text = (max: number) => z.string().max(max);
const sessionId = z
  .string()
  .refine(isValidSessionId, "must be a session id (letters, digits, '.', '_', '-')");
const positive = (max: number) => z.number().int().positive().max(max);

/** Who the child is in its tree: the same for every kind of child. */
const identity = {
  v: z.literal(CHILD_SPEC_VERSION),
  /** Its task_id: its record's key. */
  taskId: sessionId,
  /** Its transcript's id (the task_id, for a child started by this version). */
  sessionId,
  /** The caller's session ("" for a child of no session, as a workflow's root). */
  parentSessionId: z.union([z.literal(""), sessionId]),
  agentPath: z.array(text(128).min(1).refine(noControl, "must hold no control character")).min(1).max(32),
  /** Its depth in the tree: the root is 0, its children 1. */
  depth: positive(32),
  /**
   * The W3C trace context of the parent's `task` call that started it (tracing on), so the spans of
   * wherever it runs join the parent's trace.
   */
  traceparent: z
    .string()
    .regex(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/, "must be a W3C traceparent")
    .exactOptional(),
};

const agentName = z.string().regex(AGENT_NAME_PATTERN);

/** A child that runs agentry's loop: in its parent's process, on a worker, behind `serve`. */
export const loopChildSpecSchema = z.strictObject({
  ...identity,
  kind: z.literal("loop"),
  /** Its definition as resolved: what its system prompt is made of. */
  agent: z.strictObject({
    name: agentName,
    description: text(16_384),
    prompt: text(1_000_000),
    /** What its file asked for and did not get: its system prompt tells it, so it does not look. */
    withheld: z.array(text(4096)).max(256).exactOptional(),
    temperature: z.number().min(0).max(2).exactOptional(),
  }),
  /** The project's instructions its system prompt ends with, as its parent has them. */
  instructions: text(1_000_000).exactOptional(),
  /** `provider:model`, resolved by the parent (aliases included); a machine builds it with its own keys. */
  model: z.string().regex(/^[a-z][a-z0-9-]*:[^\s]{1,256}$/, "must be provider:model"),
  /** The names of its tools, in order (never the spawn tools); a machine gives it those of its own, never more. */
  tools: z.array(z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/)).max(512),
  /** It is below the depth limit and may start children of its own (it gets its own spawn tools). */
  spawn: z.boolean(),
  /** Its rules: the run's base rules, its definition's, every deny of its parent (`childRules`). */
  rules: z
    .array(
      z.strictObject({
        permission: text(256).min(1),
        pattern: text(4096).min(1),
        action: z.enum(["allow", "ask", "deny"]),
        /** A rule of an untrusted project: dropping the mark would turn its allows into real ones. */
        narrowOnly: z.literal(true).exactOptional(),
      }),
    )
    .max(10_000),
  /** The run's permission mode, which its gate applies to what its rules leave open. */
  mode: z.enum(PERMISSION_MODES),
  /** What its commands' OS sandbox is derived from besides its rules, under the running machine's own. */
  sandbox: z.strictObject({
    /** Its parent's commands were confined read-only: its are too, on any machine. */
    readOnly: z.boolean(),
    /** Hosts its commands may reach (its definition's `allowedHosts`): only narrows. */
    allowedHosts: z
      .array(text(256))
      .max(256)
      .superRefine((hosts, context) => {
        try {
          parseAllowedHosts(hosts);
        } catch (error) {
          context.addIssue({ code: "custom", message: (error as Error).message });
        }
      })
      .exactOptional(),
  }),
  limits: z.strictObject({
    maxTurns: positive(100_000),
    stallTimeoutMs: positive(7 * 24 * 3600_000).exactOptional(),
    maxTokens: positive(1e12).exactOptional(),
    maxDurationMs: positive(30 * 24 * 3600_000).exactOptional(),
  }),
  /**
   * The tree it belongs to, so the children it starts wherever it runs are held to the tree's limits:
   * its id (where its descendants are counted: a fleet's Redis counts them across machines), how deep
   * it may grow (`spawn` says whether this child is below that), and how many descendants it may have.
   */
  tree: z.strictObject({
    id: sessionId,
    maxDepth: z.number().int().min(0).max(32),
    maxDescendants: z.number().int().min(0).max(100_000),
  }),
  toolOutputLimit: positive(100_000_000).exactOptional(),
  /**
   * Where it works, as its parent sees it: the mode, the parent's workspace, and the folder an
   * `isolated` definition names. A placement makes the place (`prepareChildWorkspace`, or a snapshot
   * for a worker); a worker never takes a folder from here but through the job's checked workspace.
   */
  workspace: z.strictObject({
    mode: z.enum(WORKSPACE_MODES),
    parent: text(4096)
      .refine(noControl, "must hold no control character")
      .refine((path) => isAbsolute(path) && normalize(path) === path, "must be an absolute, normal path"),
    path: text(4096).min(1).refine(noControl, "must hold no control character").exactOptional(),
  }),
});

/**
 * A child of a remote agent (a definition with `url`): it runs on its own server's model with its own
 * history, so all it takes from here is where the agent is and the limits of each activation. It never
 * leaves its parent's process (a queue job carries only loop children).
 */
export const remoteChildSpecSchema = z.strictObject({
  ...identity,
  kind: z.literal("remote"),
  agent: z.strictObject({
    name: agentName,
    description: text(16_384),
    url: z.url(),
    /** As its definition writes them: `${VARIABLE}`s are expanded where a request is made. */
    headers: z.record(z.string(), z.string()).exactOptional(),
  }),
  limits: z.strictObject({
    /** Its turns are the remote agent's business; this only explains a `max_turns` ending. */
    maxTurns: positive(100_000),
    /** No event from the remote agent for this long fails the activation (`stalled`). */
    stallTimeoutMs: positive(7 * 24 * 3600_000),
    /** Tokens one activation may use, as the remote agent reports them. */
    maxTokens: positive(1e12).exactOptional(),
    /** Wall-clock time of one activation. */
    maxDurationMs: positive(30 * 24 * 3600_000).exactOptional(),
  }),
});

export const childSpecSchema = z.discriminatedUnion("kind", [loopChildSpecSchema, remoteChildSpecSchema]);

export type LoopChildSpec = Omit<z.infer<typeof loopChildSpecSchema>, "rules"> & { rules: Ruleset };
export type RemoteChildSpec = z.infer<typeof remoteChildSpecSchema>;
export type ChildSpec = LoopChildSpec | RemoteChildSpec;
