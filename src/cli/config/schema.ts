import { z } from "zod";
import { mcpServersSchema } from "../../mcp/server-config.ts";
import { PERMISSION_MODES } from "../../permissions/modes.ts";
import { subagentLimitsSchema } from "../../subagents/index.ts";

export { PERMISSION_MODES };

const positiveInt = z
  .int({ error: "must be a positive integer" })
  .positive({ error: "must be a positive integer" });
const nonNegativeInt = z
  .int({ error: "must be a non-negative integer" })
  .nonnegative({ error: "must be a non-negative integer" });
const nonNegativeNumber = z
  .number({ error: "must be a non-negative number" })
  .nonnegative({ error: "must be a non-negative number" });
const nonEmptyString = z.string({ error: "must be a string" }).min(1, { error: "must not be empty" });
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });

const keyAndUrl = z.strictObject({
  apiKey: nonEmptyString.exactOptional(),
  baseUrl: httpUrl.exactOptional(),
});

/** `providers` maps onto the model registry's `ModelSettings`. */
export const providersSchema = z.strictObject({
  anthropic: keyAndUrl.exactOptional(),
  openai: keyAndUrl
    .extend({
      /** The wire API of `openai:` models: the Responses API, or Chat Completions for look-alike servers. */
      api: z.enum(["responses", "chat"], { error: "must be one of responses, chat" }).exactOptional(),
    })
    .exactOptional(),
  ollama: z.strictObject({ baseUrl: httpUrl.exactOptional() }).exactOptional(),
  openaiCompatible: z
    .record(
      z.string().regex(/^[A-Za-z0-9._-]+$/, { error: "names may use letters, digits, '.', '_' and '-'" }),
      z.strictObject({
        baseUrl: httpUrl,
        apiKey: nonEmptyString.exactOptional(),
        headers: z.record(z.string(), z.string({ error: "must be a string" })).exactOptional(),
        /** The model used when the id names only the endpoint (`openai-compatible:<name>`). */
        model: nonEmptyString.exactOptional(),
      }),
    )
    .exactOptional(),
  aliases: z.record(z.string(), nonEmptyString).exactOptional(),
  retry: z
    .strictObject({
      maxRetries: nonNegativeInt.exactOptional(),
      baseDelayMs: nonNegativeInt.exactOptional(),
      maxDelayMs: nonNegativeInt.exactOptional(),
      /** The idle watchdog of every model call: no data for this long fails the attempt (retried). */
      idleTimeoutMs: z.number().int().min(1).exactOptional(),
    })
    .exactOptional(),
  /** US dollars per million tokens, per `provider:model` id: adds or corrects the built-in price list. */
  prices: z
    .record(
      z.string(),
      z.strictObject({
        input: nonNegativeNumber,
        output: nonNegativeNumber,
        cacheRead: nonNegativeNumber,
        cacheWrite: nonNegativeNumber,
      }),
    )
    .exactOptional(),
  /** Tokens a prompt may hold, per `provider:model` id: adds or corrects the built-in table (automatic compaction). */
  contextWindows: z.record(z.string(), positiveInt).exactOptional(),
  /** Whether a `provider:model` id reads images: corrects the built-in guess (docs/providers.md). */
  imageInput: z.record(z.string(), z.boolean({ error: "must be true or false" })).exactOptional(),
});

const hostPattern = z
  .string({ error: "must be a host name such as registry.npmjs.org or *.github.com" })
  .regex(/^(\*\.)?[A-Za-z0-9.-]+$|^\[?[0-9A-Fa-f:.]+\]?$/, {
    error: "must be a host name such as registry.npmjs.org or *.github.com",
  });
const variableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "must be an environment variable name" });
const envName = z
  .string({ error: "must be an environment variable name (NAME or PREFIX_*)" })
  .regex(/^[A-Za-z_][A-Za-z0-9_]*\*?$/, { error: "must be an environment variable name (NAME or PREFIX_*)" });

/** The OS sandbox of commands (docs/security.md). */
export const sandboxSchema = z.strictObject({
  /** false: no OS sandbox (only the analysis of command lines). Honoured from the user's config only. */
  enabled: z.boolean({ error: "must be true or false" }).exactOptional(),
  network: z
    .strictObject({ allowedHosts: z.array(hostPattern, { error: "must be a list of host names" }) })
    .exactOptional(),
  /** More paths commands may not read (absolute, `~/…`, or workspace-relative). */
  denyRead: z.array(nonEmptyString, { error: "must be a list of paths" }).exactOptional(),
  /** More paths writing commands may write (a package manager's cache …). */
  allowWrite: z.array(nonEmptyString, { error: "must be a list of paths" }).exactOptional(),
  /** More environment variables commands inherit (`GITHUB_TOKEN`, `MY_*`). */
  env: z.array(envName, { error: "must be a list of environment variable names" }).exactOptional(),
});

/**
 * One config file (`agentry.json`, `.agentry/config.json`, `~/.config/agentry/config.json`). Every key
 * is optional; unknown keys are errors so a typo never silently does nothing.
 */
export const configFileSchema = z.strictObject({
  /** Editors use it for completion; ignored by agentry. */
  $schema: z.string().exactOptional(),
  model: nonEmptyString.exactOptional(),
  providers: providersSchema.exactOptional(),
  maxTurns: positiveInt.exactOptional(),
  permissionMode: z
    .enum(PERMISSION_MODES, { error: `must be one of ${PERMISSION_MODES.join(", ")}` })
    .exactOptional(),
  /** Permission rules in any form `rulesetFromConfig` reads; validated there (docs/permissions.md). */
  permission: z.unknown().exactOptional(),
  toolOutputLimit: positiveInt.exactOptional(),
  /** Limits of the subagent tree: maxDepth, maxConcurrent, maxDescendants, maxTurns, timeoutMs … */
  subagents: subagentLimitsSchema.exactOptional(),
  /** Model calls in flight per endpoint, shared by the whole tree: the adaptive limit's bounds and start. */
  modelConcurrency: z
    .strictObject({
      max: positiveInt.exactOptional(),
      min: positiveInt.exactOptional(),
      initial: positiveInt.exactOptional(),
    })
    .exactOptional(),
  /** The opt-in `workflow` tool: scripts that orchestrate many subagents (docs/workflows.md). */
  workflows: z
    .strictObject({
      /** true: the root agent gets the `workflow` tool (default false; `agentry run --workflows`). */
      enabled: z.boolean({ error: "must be true or false" }).exactOptional(),
    })
    .exactOptional(),
  /** Automatic compaction of long conversations (the root's and every subagent's). */
  compaction: z
    .strictObject({
      /** false: never compact automatically (`/compact` still works). */
      enabled: z.boolean({ error: "must be true or false" }).exactOptional(),
      /** Share of the model's context window at which to compact. */
      threshold: z
        .number({ error: "must be a number between 0.1 and 0.95" })
        .min(0.1, { error: "must be a number between 0.1 and 0.95" })
        .max(0.95, { error: "must be a number between 0.1 and 0.95" })
        .exactOptional(),
      /** Assistant turns kept verbatim after the summary, at most. */
      keepTurns: positiveInt.exactOptional(),
      /** The model that writes summaries (provider:model or an alias); default the agent's own. */
      model: nonEmptyString.exactOptional(),
    })
    .exactOptional(),
  /** Remote (A2A) agents: how long a request may take to begin its answer (and a card to arrive). */
  remote: z.strictObject({ timeoutMs: positiveInt.exactOptional() }).exactOptional(),
  /**
   * Claude Code's hooks, in its settings' shape (`{ PreToolUse: [{ matcher, hooks: [{ type: "command",
   * command }] }] }`); read by `readHookSettings` (docs/hooks.md). A project's run only in a trusted folder.
   */
  hooks: z
    .record(z.string(), z.unknown(), { error: "must map hook events to lists of matchers" })
    .exactOptional(),
  /** MCP servers whose tools the agent and its subagents get: name → `{command, args, env, cwd}` or `{type: "http", url, headers}`. */
  mcpServers: mcpServersSchema.exactOptional(),
  /** Default timeout of a bash command when the model does not set one (the tool caps it at 600). */
  /** The OS sandbox of commands: network hosts, extra hidden or writable paths, inherited env vars. */
  sandbox: sandboxSchema.exactOptional(),
  /** A fleet (user config only): `redis` for task records and queued children, `queue` to queue children on. */
  fleet: z
    .strictObject({
      redis: z
        .string({ error: "must be a redis:// URL" })
        .regex(/^rediss?:\/\//, { error: "must be a redis:// URL" })
        .exactOptional(),
      queue: nonEmptyString.exactOptional(),
      /** How long queued children wait for a Redis that went away before they end (default 60 s). */
      lostAfterMs: positiveInt.exactOptional(),
      /** How long queued children wait when no worker is left on their queue (default 10 min). */
      noWorkerTimeoutMs: positiveInt.exactOptional(),
    })
    .exactOptional(),
  /**
   * Variables set for the commands agents run and for MCP servers (`NAME: value`), as Claude Code's
   * settings `env`. A project's apply in a trusted folder, never the providers' own variables.
   */
  env: z
    .record(variableName, z.string({ error: "must be a string" }), {
      error: "must be an object of variable name → value",
    })
    .exactOptional(),
  /**
   * More instruction files for the system prompt, as OpenCode's `instructions`: paths or globs,
   * relative to the file that names them (docs/instructions.md).
   */
  instructions: z.array(nonEmptyString, { error: "must be a list of paths or globs" }).exactOptional(),
  /**
   * Traces of every run on OpenTelemetry's GenAI conventions, over OTLP/HTTP (user config only: a
   * repository does not choose where your conversations go). The `OTEL_EXPORTER_OTLP_*` variables do
   * the same (docs/telemetry.md).
   */
  telemetry: z
    .strictObject({
      /** The collector's OTLP/HTTP base URL (`http://localhost:4318`); tracing is on when set. */
      endpoint: httpUrl.exactOptional(),
      headers: z.record(z.string(), z.string({ error: "must be a string" })).exactOptional(),
      /** Record prompts, answers and tool arguments and results on the spans (default false). */
      content: z.boolean({ error: "must be true or false" }).exactOptional(),
    })
    .exactOptional(),
  /**
   * What `agentry sessions prune` and `agentry tasks prune` remove when given no flag (user config
   * only: a repository never decides what is deleted). Running and resumable work is never pruned.
   */
  retention: z
    .strictObject({
      /** Prune what was last active longer ago than this many days. */
      maxAgeDays: positiveInt.exactOptional(),
      /** Keep at most this many of your newest sessions (each with its subagents' sessions and records). */
      maxSessions: positiveInt.exactOptional(),
      /** Keep at most this many of the newest task records that belong to no session here. */
      maxTasks: positiveInt.exactOptional(),
    })
    .exactOptional(),
  /**
   * Folders the user trusts (user config only), with their subfolders: their project files' widening
   * settings apply without asking (docs/configuration.md, "Trust").
   */
  trustedFolders: z
    .array(nonEmptyString, { error: "must be a list of absolute paths (or ~/…)" })
    .exactOptional(),
  bashTimeoutSeconds: z
    .number({ error: "must be a number of seconds between 1 and 600" })
    .min(1, { error: "must be a number of seconds between 1 and 600" })
    .max(600, { error: "must be a number of seconds between 1 and 600" })
    .exactOptional(),
});

export type ConfigFile = z.infer<typeof configFileSchema>;
