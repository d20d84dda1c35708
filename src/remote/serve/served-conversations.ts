import { errorMessage } from "../../text/error-message.ts";
import type { ServedAgents, ServedChild } from "./served-agents.ts";
import type { ServedRecords } from "./served-records.ts";

/** Idle conversations kept open per served agent, when `keep` is not given. */
export const DEFAULT_OPEN_CONVERSATIONS = 16;

/** Context → session pairs remembered without records (a library server): beyond, the oldest go. */
const REMEMBERED_WITHOUT_RECORDS = 10_000;

export class ConversationLostError extends Error {
  override readonly name = "ConversationLostError";
}

/**
 * The open conversations of one served agent, one per A2A context, least recently used last to stay:
 * a conversation holds its child (tools, rules, the whole history in memory), so beyond `keep` the
 * idle ones are closed — their history is on disk, in their session's transcript — and the context's
 * next message takes the session up again (found through the task records, which name it; or, with
 * no records, through a bounded map). After a restart the same path continues an earlier context.
 */
export class ServedConversations {
  private readonly agent: string;
  private readonly agents: ServedAgents;
  private readonly records: ServedRecords | undefined;
  private readonly keep: number;
  /** In the order they were last used. */
  private readonly open = new Map<string, Promise<ServedChild>>();
  private readonly inUse = new Set<string>();
  private readonly sessions = new Map<string, string>();

  constructor(options: { agent: string; agents: ServedAgents; records?: ServedRecords; keep?: number }) {
    this.agent = options.agent;
    this.agents = options.agents;
    this.records = options.records;
    this.keep = options.keep ?? DEFAULT_OPEN_CONVERSATIONS;
  }

  /**
   * The context's conversation, for one task: the open one, else the one on disk taken up again, else
   * a new one. `release` it when the task ends. Throws `ConversationLostError` when the context had a
   * conversation that cannot be taken up (its transcript removed or damaged, or its session busy in
   * another process): a new one would silently lose what the client said before.
   */
  async acquire(contextId: string): Promise<ServedChild> {
    this.inUse.add(contextId);
    let found = this.open.get(contextId);
    if (found !== undefined) {
      this.open.delete(contextId);
      this.open.set(contextId, found);
      return found;
    }
    found = this.reopen(contextId);
    this.open.set(contextId, found);
    // A conversation that could not open is not kept: the next message tries again.
    found.catch(() => {
      if (this.open.get(contextId) === found) this.open.delete(contextId);
    });
    return found;
  }

  /** The task of `contextId` ended: idle conversations beyond `keep` are closed, oldest first. */
  release(contextId: string): void {
    this.inUse.delete(contextId);
    for (const [id, conversation] of this.open) {
      if (this.open.size <= this.keep) break;
      if (this.inUse.has(id)) continue;
      this.open.delete(id);
      void conversation.then(
        (child) => {
          if (this.records === undefined) this.remember(id, child.sessionId);
          child.executor.close?.();
        },
        () => {},
      );
    }
  }

  /** Lets go of every conversation (the server stops). */
  async close(): Promise<void> {
    const children = await Promise.allSettled(this.open.values());
    this.open.clear();
    for (const child of children) if (child.status === "fulfilled") child.value.executor.close?.();
  }

  private async reopen(contextId: string): Promise<ServedChild> {
    const session = this.sessions.get(contextId) ?? (await this.records?.sessionOf(contextId, this.agent));
    if (session === undefined) return this.agents.open(this.agent, { contextId });
    try {
      return await this.agents.open(this.agent, { contextId, resume: session });
    } catch (error) {
      throw new ConversationLostError(
        `the conversation of context ${contextId} (session ${session}) cannot be taken up again: ${errorMessage(error)}. Start a new context.`,
        { cause: error },
      );
    }
  }

  private remember(contextId: string, sessionId: string): void {
    this.sessions.delete(contextId);
    this.sessions.set(contextId, sessionId);
    for (const oldest of this.sessions.keys()) {
      if (this.sessions.size <= REMEMBERED_WITHOUT_RECORDS) break;
      this.sessions.delete(oldest);
    }
  }
}
