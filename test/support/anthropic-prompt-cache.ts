import { createHash } from "node:crypto";

/**
 * Anthropic's prompt cache, as its documentation describes it, so the usage the test model server
 * reports says what a real request would have cost:
 * - the prompt is one sequence of blocks in the order tools → system → messages; a block with
 *   `cache_control` is a breakpoint, and the prefix up to it is written to the cache when it holds at
 *   least `minTokens` (1,024 for Sonnet and Opus 4, more for some models);
 * - a request reads the longest cached prefix that ends at one of its breakpoints or at one of the 20
 *   block boundaries before each;
 * - an entry is there for later requests only once the request that wrote it has been answered
 *   (`commit`), so requests sent at the same time do not share a write.
 *
 * Tokens are an estimate, the same everywhere in the tests and benchmarks: a block's JSON (without its
 * `cache_control`; of a tool, only its name, description and input schema) in characters ÷ 4, rounded
 * up. Entries never expire (a test is shorter than the TTL).
 */
export class AnthropicPromptCache {
  readonly #entries = new Set<string>();
  readonly #minTokens: number;

  constructor(options: PromptCacheOptions = {}) {
    this.#minTokens = options.minTokens ?? 1024;
  }

  /** What the request costs given the entries committed so far, and the entries it would write. */
  account(body: Record<string, unknown>): CacheAccount {
    const blocks = promptBlocks(body);
    const model = typeof body.model === "string" ? body.model : "";
    const keys: string[] = [];
    const ends: number[] = []; // tokens of the prefix through block i
    let hash = model;
    let tokens = 0;
    for (const block of blocks) {
      hash = createHash("sha256").update(hash).update(block.key).digest("hex");
      tokens += block.tokens;
      keys.push(hash);
      ends.push(tokens);
    }
    const breakpoints = blocks.flatMap((block, index) => (block.breakpoint ? [index] : []));
    let read = 0;
    for (const point of breakpoints) {
      for (let index = point; index >= Math.max(0, point - LOOKBACK); index--) {
        if (this.#entries.has(keys[index]!)) {
          read = Math.max(read, ends[index]!);
          break;
        }
      }
    }
    const writes = breakpoints.filter((point) => ends[point]! >= this.#minTokens && ends[point]! > read);
    const last = writes.at(-1);
    const written = last === undefined ? 0 : ends[last]! - read;
    return {
      usage: { input: tokens - read - written, cacheRead: read, cacheWrite: written },
      writes: writes.map((point) => keys[point]!),
    };
  }

  /** Makes a request's writes readable: call it once the request has been answered. */
  commit(account: CacheAccount): void {
    for (const key of account.writes) this.#entries.add(key);
  }
}

export interface PromptCacheOptions {
  /** The smallest prefix the cache keeps, in tokens (default 1,024, as for Sonnet and Opus 4). */
  minTokens?: number;
}

export interface CacheAccount {
  /** As the Messages API reports it: `input` is the uncached rest. */
  usage: { input: number; cacheRead: number; cacheWrite: number };
  /** The prefixes this request writes once answered. */
  writes: string[];
}

/** How many block boundaries before a breakpoint the cache looks back for an earlier entry. */
const LOOKBACK = 20;

interface PromptBlock {
  /** Identifies the block's content and place (its message's role). */
  key: string;
  tokens: number;
  breakpoint: boolean;
}

/** The estimate every figure uses: characters of the block's JSON ÷ 4, rounded up. */
export function estimateTokens(block: unknown): number {
  return Math.ceil(JSON.stringify(withoutCacheControl(block)).length / 4);
}

/**
 * A tool definition's tokens: what the model reads of it (name, description, input schema). Request
 * options beside them (`cache_control`, `eager_input_streaming`) are not prompt text.
 */
export function toolTokens(tool: unknown): number {
  const { name, description, input_schema } = (tool ?? {}) as Record<string, unknown>;
  return estimateTokens({ name, description, input_schema });
}

/** The request's tool definitions and system prompt in estimated tokens: its fixed part. */
export function fixedTokens(body: Record<string, unknown>): { tools: number; system: number } {
  const tools = arrayOf(body.tools).reduce((sum: number, tool) => sum + toolTokens(tool), 0);
  const system = systemBlocks(body.system).reduce((sum: number, block) => sum + estimateTokens(block), 0);
  return { tools, system };
}

/** The blocks of a Messages API request in the cache's order: tools, system, then messages. */
export function promptBlocks(body: Record<string, unknown>): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  const push = (scope: string, block: unknown, tokens = estimateTokens(block)) => {
    blocks.push({
      key: `${scope}:${JSON.stringify(withoutCacheControl(block))}\n`,
      tokens,
      breakpoint: hasCacheControl(block),
    });
  };
  for (const tool of arrayOf(body.tools)) push("tool", tool, toolTokens(tool));
  for (const block of systemBlocks(body.system)) push("system", block);
  for (const message of arrayOf(body.messages)) {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    const scope = `message:${String(role)}`;
    if (typeof content === "string") push(scope, { type: "text", text: content });
    else
      for (const [index, block] of arrayOf(content).entries())
        push(index === 0 ? `${scope}:first` : scope, block);
  }
  return blocks;
}

function systemBlocks(system: unknown): unknown[] {
  if (typeof system === "string") return system === "" ? [] : [{ type: "text", text: system }];
  return arrayOf(system);
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function hasCacheControl(block: unknown): boolean {
  return typeof block === "object" && block !== null && "cache_control" in block;
}

function withoutCacheControl(block: unknown): unknown {
  if (!hasCacheControl(block)) return block;
  const { cache_control: _, ...rest } = block as Record<string, unknown>;
  return rest;
}
