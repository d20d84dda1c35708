import { commandPrefix } from "../shell/command-prefix.ts";
import { errorMessage } from "../text/error-message.ts";
import { formatDuration } from "../text/format-duration.ts";
import {
  type AskHandler,
  type AskRequest,
  createAskQueue,
  type QueuedAnswer,
  type QueuedAsk,
} from "./ask-queue.ts";
import { claudeRuleText } from "./claude-rule.ts";
import { describeRule, evaluateRequest, type PatternDecision } from "./evaluate.ts";
import { decideAsk, type PermissionMode } from "./modes.ts";
import { isProtectedPath } from "./protected-paths.ts";
import { sandboxCovers } from "./sandbox-coverage.ts";
import { PermissionDeniedError, type PermissionRequest, type PermissionRule, type Ruleset } from "./types.ts";
import { wildcardMatch } from "./wildcard.ts";

export type { AskAnswer, AskHandler, AskRequest, RejectWithMessage } from "./ask-queue.ts";
export { PERMISSION_MODES, type PermissionMode } from "./modes.ts";

export const DEFAULT_ASK_TIMEOUT_MS = 5 * 60_000;

export interface PermissionGateOptions {
  rules: Ruleset;
  mode: PermissionMode;
  /** The interactive prompt. Without it, asks that the mode leaves open are denied with a message. */
  onAsk?: AskHandler;
  /** Default 5 minutes; an unanswered ask is then denied. */
  askTimeoutMs?: number;
  /**
   * Answers an ask before a person is asked (Claude Code's PermissionRequest hooks, a loaded skill's
   * `allowed-tools`), also in a run with no one to ask; undefined leaves it to the person. Its allow never
   * covers a protected path or leaving the sandbox or the workspace; its deny always holds.
   */
  approve?: Approver;
}

/** What an `Approver` may answer. */
export type ApproverAnswer = { behavior: "allow" } | { behavior: "deny"; message: string };

/** See `PermissionGateOptions.approve`. */
export type Approver = (request: AskRequest, signal?: AbortSignal) => Promise<ApproverAnswer | undefined>;

/** Permissions only a person may grant when the rules ask: a hook or a skill never answers them. */
const PERSON_ONLY: ReadonlySet<string> = new Set(["unsandboxed", "external_directory"]);

/** Who asks; `AgentIdentity` fits. */
export interface AskingAgent {
  readonly path: readonly string[];
}

/**
 * The `AgentConfig.ask` function: resolves when allowed, throws `PermissionDeniedError` (with a
 * message the model can act on) when denied. `withRules` makes the gate of a child agent: its own
 * rules, sharing this gate's mode, prompt queue and the approvals given with "always".
 *
 * Order: a deny rule refuses; protected paths (`protected-paths.ts`) need a person in every mode but
 * bypass; a command confined by a sandbox no wider than the rules (`sandboxCovers`) is allowed; the
 * mode settles what is left, else the user is asked (or, with no one to ask, it is denied).
 */
export interface PermissionGate {
  (request: PermissionRequest, agent: AskingAgent, signal?: AbortSignal): Promise<void>;
  readonly rules: Ruleset;
  /** The run's permission mode, shared by every gate made with `withRules`. */
  readonly mode: PermissionMode;
  withRules(rules: Ruleset): PermissionGate;
}

interface SharedState {
  mode: PermissionMode;
  timeoutMs: number;
  prompt: ((ask: QueuedAsk) => Promise<QueuedAnswer>) | undefined;
  /** What "always" approved this session; see `alwaysScope`. */
  approved: Approval[];
  approve: Approver | undefined;
}

/** One "always": a rule's pattern (every path it asks for), a command prefix, or one exact value. */
interface Approval {
  permission: string;
  pattern: string;
  exact: boolean;
  /** The pattern is a command's prefix (`npm test *`), shown as `Bash(npm test:*)`. */
  commandPrefix?: boolean;
}

export function createPermissionGate(options: PermissionGateOptions): PermissionGate {
  const timeoutMs = options.askTimeoutMs ?? DEFAULT_ASK_TIMEOUT_MS;
  return gateFor(options.rules, {
    mode: options.mode,
    timeoutMs,
    prompt: options.onAsk === undefined ? undefined : createAskQueue(options.onAsk, timeoutMs),
    approved: [],
    approve: options.approve,
  });
}

function gateFor(rules: Ruleset, shared: SharedState): PermissionGate {
  const gate = (request: PermissionRequest, agent: AskingAgent, signal?: AbortSignal) =>
    check(rules, shared, request, agent, signal);
  return Object.assign(gate, {
    rules,
    mode: shared.mode,
    withRules: (childRules: Ruleset) => gateFor(childRules, shared),
  });
}

const isApproved = (shared: SharedState, permission: string, pattern: string) =>
  shared.approved.some(
    (approval) =>
      approval.permission === permission &&
      (approval.exact ? approval.pattern === pattern : wildcardMatch(approval.pattern, pattern)),
  );

/**
 * What "always" approves for an asked pattern: for a command, its prefix (`npm test -- --x` approves
 * `npm test *`, `commandPrefix`) or, where a prefix would be too wide, the exact command; for others
 * the pattern of the ask rule that matched it, so five reads under `read *.env ask` give one prompt.
 * Protected paths and leaving the sandbox (`unsandboxed`) are approved one exact value at a time.
 */
function alwaysScope(permission: string, entry: PatternDecision, protectedPath: boolean): Approval {
  const exact = { permission, pattern: entry.pattern, exact: true };
  if (permission === "bash") {
    const prefix = commandPrefix(entry.pattern);
    return prefix === undefined
      ? exact
      : { permission, pattern: `${prefix} *`, exact: false, commandPrefix: true };
  }
  const byRule = entry.rule?.action === "ask" && permission !== "unsandboxed" && !protectedPath;
  return byRule ? { permission, pattern: entry.rule?.pattern ?? entry.pattern, exact: false } : exact;
}

async function check(
  rules: Ruleset,
  shared: SharedState,
  request: PermissionRequest,
  agent: AskingAgent,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { permission } = request;
  const decision = evaluateRequest(rules, permission, request.patterns);
  const who = agent.path.join("/");
  if (request.prompt === false) return settleWithoutPrompt(rules, shared, request, decision.patterns, who);
  const denied = decision.patterns.find((entry) => entry.action === "deny");
  if (denied !== undefined) {
    const by = denied.rule === undefined ? "" : ` by rule ${describeRule(denied.rule)}`;
    throw new PermissionDeniedError(
      `${subject(request, [denied.pattern])} is denied${by} for agent ${who}; do not retry it. Choose another approach, or report that you need it.`,
    );
  }
  const needsPerson = (pattern: string) => protectedEdit(shared, permission, pattern);
  const pendingEntries = () => pending(shared, permission, decision.patterns);
  const entries = pendingEntries();
  if (entries.length === 0) return;
  const asked = entries.map((entry) => entry.pattern);
  if (request.sandbox !== undefined && sandboxCovers(rules, shared.mode, request.sandbox)) return;

  const protectedAsked = asked.filter(needsPerson);
  const byMode = modeDecision(shared, permission, asked);
  if (byMode.kind === "allow") return;
  if (byMode.kind === "deny") {
    throw new PermissionDeniedError(
      `${subject(request, asked)} is denied for agent ${who}: ${byMode.reason}. Do not retry it.`,
    );
  }
  // What a person would be asked, a hook may answer — but never for a protected path or for leaving the
  // sandbox or the workspace.
  const hookMayAllow = protectedAsked.length === 0 && !PERSON_ONLY.has(permission);
  if (request.approvedByHook === true && hookMayAllow) return;

  const always = entries.map((entry) => alwaysScope(permission, entry, needsPerson(entry.pattern)));
  const shown = [...new Map(always.map((approval) => [approval.pattern, approval])).values()];
  const askRequest: AskRequest = {
    ...request,
    patterns: asked,
    agentPath: [...agent.path],
    always: shown.map((approval) => approval.pattern),
    alwaysRules: shown.map((approval) =>
      claudeRuleText(permission, approval.pattern, approval.commandPrefix === true),
    ),
  };
  const approved = await shared.approve?.(askRequest, signal);
  if (approved?.behavior === "deny")
    throw new PermissionDeniedError(
      `${subject(request, asked)} is denied for agent ${who} by a permission hook: ${approved.message}. Do not retry it.`,
    );
  if (approved?.behavior === "allow" && hookMayAllow) return;
  if (shared.prompt === undefined)
    throw new PermissionDeniedError(noApproverMessage(request, asked, protectedAsked, who, shared.mode));

  const answer = await shared.prompt({
    request: askRequest,
    stillNeeded: () => pendingEntries().length > 0,
    ...(signal === undefined ? {} : { signal }),
  });
  if (answer === "once") return;
  if (answer === "always") {
    shared.approved.push(...always);
    return;
  }
  throw new PermissionDeniedError(unansweredMessage(answer, subject(request, asked), who, shared.timeoutMs));
}

/** Writing a protected path needs a person even where a rule or the mode would allow it. */
function protectedEdit(shared: SharedState, permission: string, pattern: string): boolean {
  return permission === "edit" && shared.mode !== "bypass" && isProtectedPath(pattern);
}

/** The patterns no rule allows (or protected), and no "always" approved yet. */
function pending(shared: SharedState, permission: string, decisions: readonly PatternDecision[]) {
  return decisions.filter(
    (entry) =>
      (entry.action === "ask" || protectedEdit(shared, permission, entry.pattern)) &&
      !isApproved(shared, permission, entry.pattern),
  );
}

/** What the mode does with `asked`; a protected path goes to a person in every mode but plan. */
function modeDecision(shared: SharedState, permission: string, asked: readonly string[]) {
  return asked.some((pattern) => protectedEdit(shared, permission, pattern)) && shared.mode !== "plan"
    ? ({ kind: "prompt" } as const)
    : decideAsk(shared.mode, permission, asked);
}

/**
 * A request with `prompt: false`: the same decision as `check` up to the prompt, for every pattern at
 * once; what is left for a person is refused, and the error lists it apart from what was denied.
 */
function settleWithoutPrompt(
  rules: Ruleset,
  shared: SharedState,
  request: PermissionRequest,
  decisions: readonly PatternDecision[],
  who: string,
): void {
  const denied = decisions.filter((entry) => entry.action === "deny").map((entry) => entry.pattern);
  let needsApproval = pending(shared, request.permission, decisions).map((entry) => entry.pattern);
  const covered = request.sandbox !== undefined && sandboxCovers(rules, shared.mode, request.sandbox);
  if (needsApproval.length > 0 && !covered) {
    const byMode = modeDecision(shared, request.permission, needsApproval);
    if (byMode.kind === "deny") denied.push(...needsApproval);
    if (byMode.kind !== "prompt") needsApproval = [];
  } else needsApproval = [];
  if (denied.length === 0 && needsApproval.length === 0) return;
  throw new PermissionDeniedError(
    `${subject(request, [...denied, ...needsApproval])} is not allowed for agent ${who} without asking, and this request does not ask.`,
    { denied, needsApproval },
  );
}

/** `bash 'rm x'`, naming the whole request when the pattern is only part of it. */
function subject(request: PermissionRequest, patterns: readonly string[]): string {
  const parts = patterns.map((pattern) => `'${pattern}'`).join(", ");
  const whole = request.title ?? request.patterns.join("; ");
  const partial = request.patterns.length > patterns.length ? ` (part of "${whole}")` : "";
  return `${request.permission} ${parts}${partial}`;
}

function noApproverMessage(
  request: PermissionRequest,
  asked: readonly string[],
  protectedAsked: readonly string[],
  who: string,
  mode: PermissionMode,
): string {
  if (protectedAsked.length > 0) {
    return (
      `${subject(request, protectedAsked)} is a protected path (git's config and hooks, agentry's config and state, ` +
      `agent definitions, MCP and editor settings): writing it needs a person's approval, and no one can approve it ` +
      `in this run, so it is denied for agent ${who}. Do not retry it; report the change you would make instead. ` +
      `(The user can run interactively and approve it, or use --permission-mode bypass.)`
    );
  }
  const flag = request.permission === "edit" ? "--permission-mode accept-edits" : "--permission-mode bypass";
  const rule: PermissionRule = { permission: request.permission, pattern: asked[0] ?? "*", action: "allow" };
  return (
    `${subject(request, asked)} needs approval and no one can approve it in this run (permission mode "${mode}"), ` +
    `so it is denied for agent ${who}. Do not retry it; choose another approach, or report that you need it. ` +
    `(The user can allow it with ${flag} or the rule ${JSON.stringify(rule)}.)`
  );
}

function unansweredMessage(
  answer: Exclude<QueuedAnswer, "once" | "always">,
  what: string,
  who: string,
  timeoutMs: number,
): string {
  if (typeof answer === "object" && "type" in answer) {
    return `The user rejected ${what} for agent ${who} and said: ${JSON.stringify(answer.message)}. Do not retry it; do what the user says instead.`;
  }
  if (answer === "reject") {
    return `The user rejected ${what} for agent ${who}. Do not retry it; choose another approach, or report that it was rejected.`;
  }
  if (answer === "timeout") {
    return `No answer to the permission prompt for ${what} (agent ${who}) within ${formatDuration(timeoutMs)}; it timed out and is treated as denied. Do not retry it; report that it needs approval.`;
  }
  if (answer === "aborted")
    return `The run was cancelled while ${what} (agent ${who}) waited for permission.`;
  const reason = errorMessage(answer.error);
  return `The permission prompt for ${what} (agent ${who}) failed (${reason}); treated as denied. Do not retry it.`;
}
