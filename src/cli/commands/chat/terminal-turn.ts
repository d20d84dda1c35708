import type { AskHandler } from "../../../permissions/gate.ts";
import { type ElicitHandler, terminalElicit } from "../../elicit-prompt.ts";
import { terminalAsk } from "../../permission-prompt.ts";
import type { AgentTreeRenderer } from "../../render/with-agent-tree.ts";
import { type InterruptKey, watchInterruptKey } from "./interrupt-key.ts";

/** What the chat loop tells the terminal about each turn. */
export interface TurnObserver {
  /** A turn starts; `interrupt` is what Ctrl-C does to it. */
  begin(signal: AbortSignal, interrupt: () => void): void;
  /** The turn's renderer, once made. */
  rendering(renderer: AgentTreeRenderer): void;
  end(): void;
}

/**
 * The terminal side of the running turn: Ctrl-C as a key while it runs, and the permission prompt.
 * A prompt pauses the key watcher and the live tree, so it alone reads stdin and draws; Ctrl-C there
 * interrupts the turn too (as a key: the terminal never raises SIGINT in the interactive mode). A
 * prompt is dismissed when its turn is aborted, so it never outlives the turn and reads lines meant
 * for the next prompt. The loop already withdraws a pending ask through the run's signal; the turn's
 * signal here also covers an ask raised by a child whose own signal outlives the turn.
 */
export class TerminalTurn implements TurnObserver {
  readonly ask: AskHandler;
  /** An MCP server's form, asked as a permission prompt is (the same pauses). */
  readonly elicit: ElicitHandler;
  private readonly input: NodeJS.ReadableStream;
  private signal: AbortSignal | undefined;
  private keys: InterruptKey | undefined;
  private interrupt: (() => void) | undefined;
  private renderer: AgentTreeRenderer | undefined;

  constructor(input: NodeJS.ReadableStream, output: NodeJS.WritableStream) {
    this.input = input;
    const prompt = terminalAsk({
      input,
      output,
      beforePrompt: () => this.renderer?.interrupt?.(),
      onInterrupt: () => this.interrupt?.(),
    });
    const form = terminalElicit({
      input,
      output,
      beforePrompt: () => this.renderer?.interrupt?.(),
      onInterrupt: () => this.interrupt?.(),
    });
    this.ask = (request, signal) => this.paused(signal, "reject", (both) => prompt(request, both));
    this.elicit = (request, signal) =>
      this.paused(signal, { action: "cancel" }, (both) => form(request, both));
  }

  /** Runs a question with the key watcher and the live tree paused; outside a turn, `outside`. */
  private async paused<T>(
    signal: AbortSignal,
    outside: T,
    ask: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const turn = this.signal;
    if (turn === undefined) return outside;
    this.keys?.pause();
    try {
      return await ask(AbortSignal.any([signal, turn]));
    } finally {
      this.keys?.resume();
      this.renderer?.resume();
    }
  }

  begin(signal: AbortSignal, interrupt: () => void): void {
    this.signal = signal;
    this.interrupt = interrupt;
    this.keys = watchInterruptKey(this.input, interrupt);
  }

  rendering(renderer: AgentTreeRenderer): void {
    this.renderer = renderer;
  }

  end(): void {
    this.keys?.stop();
    this.keys = undefined;
    this.signal = undefined;
    this.interrupt = undefined;
    this.renderer = undefined;
  }
}
