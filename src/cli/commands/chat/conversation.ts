import { Session } from "../../../agent/session/session.ts";
import { newSessionId } from "../../../agent/session/session-id.ts";
import type { Model } from "../../../model/model.ts";

/**
 * The session the interactive mode talks in. A new one gets its id at once (the header shows it) but
 * its transcript only with the first message, so opening and closing agentry leaves no empty session.
 */
export class Conversation {
  private currentId: string;
  private session: Session | undefined;
  private readonly workspace: string;
  private readonly model: Model;

  constructor(workspace: string, model: Model, resumed?: Session) {
    this.workspace = workspace;
    this.model = model;
    this.session = resumed;
    this.currentId = resumed?.id ?? newSessionId();
  }

  get id(): string {
    return this.currentId;
  }

  /** Messages so far (0 before the first turn of a new session). */
  get messageCount(): number {
    return this.session?.messages.length ?? 0;
  }

  /** The session, its transcript created on first use with the model of that moment. */
  async open(): Promise<Session> {
    this.session ??= await Session.create({
      workspace: this.workspace,
      agentName: "main",
      model: this.model.id,
      id: this.currentId,
    });
    return this.session;
  }

  /** `/new`: the next turn starts a fresh session (the current one's lock is released). */
  startNew(): void {
    this.session?.close();
    this.session = undefined;
    this.currentId = newSessionId();
  }

  /** The conversation is over: its session's lock is released. */
  close(): void {
    this.session?.close();
  }
}
