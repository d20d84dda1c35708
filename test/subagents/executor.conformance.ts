import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/contracts/events.ts";
import { type Message, userText } from "../../src/model/messages.ts";
import type { ModelRequest } from "../../src/model/model.ts";
import type { Activation, ActivationResult, ChildExecutor } from "../../src/subagents/run/executor.ts";
import type { ScriptedReply } from "../../src/testing/index.ts";
import { waitFor } from "../support/processes.ts";
import { scaled } from "../support/time-scale.ts";

/**
 * The behaviour every child executor must have, wherever it runs the child (this process, an A2A
 * server, a queue worker). An executor's test file calls `executorConformance("name", fixture)`; the
 * suite sees the executor only through its interface and what the child's model was asked.
 */
export interface ExecutorFixture {
  /**
   * A new child whose model answers with `replies`, in order, and the executor that runs it. The
   * child has no tools; its events carry `agentPath`.
   */
  child(replies: ScriptedReply[]): Promise<ExecutorChild>;
  /**
   * Whether an activation outlives the process that started it: `follow` then finds it again from its
   * `ref` (a remote task, a queued job). An in-process child dies with its process: no ref, no follow.
   */
  follows: boolean;
}

export interface ExecutorChild {
  executor: ChildExecutor;
  agentPath: readonly string[];
  /** What the child's model was asked so far, in order. */
  requests(): readonly ModelRequest[];
  /** An executor for the same child as a new process would make it (for `follow`). */
  reopen?(): Promise<ChildExecutor>;
}

/** Slow enough that nothing ends by itself while a test acts. */
const SLOW_MS = 10_000;

export function executorConformance(name: string, fixture: ExecutorFixture): void {
  describe(`ChildExecutor conformance: ${name}`, () => {
    it("runs the prompt to an outcome; its events stream in order, from agent_start to agent_end", async () => {
      const child = await fixture.child([{ text: "The tests use vitest." }]);
      const events: AgentEvent[] = [];
      const activation = child.executor.start(input("Which test runner?", (event) => events.push(event)));
      const { outcome } = await activation.done;

      expect(outcome).toMatchObject({ status: "completed", text: "The tests use vitest." });
      expect(events[0]).toMatchObject({ type: "agent_start", agentPath: child.agentPath });
      expect(events.at(-1)).toMatchObject({
        type: "agent_end",
        agentPath: child.agentPath,
        outcome: { status: "completed", text: outcome.text },
      });
      for (const event of events) expect(event.agentPath).toEqual(child.agentPath);
      expect(userTexts(child.requests()[0])).toEqual(["Which test runner?"]);
    });

    it("keeps its conversation: a second activation goes on from the first", async () => {
      const child = await fixture.child([{ text: "first answer" }, { text: "second answer" }]);
      await child.executor.start(input("first question")).done;
      const { outcome } = await child.executor.start(input("second question")).done;

      expect(outcome).toMatchObject({ status: "completed", text: "second answer" });
      const seen = child.requests()[1]?.messages ?? [];
      expect(texts(seen)).toEqual(["first question", "first answer", "second question"]);
    });

    it("reads the messages sent before it started at its first turn", async () => {
      const child = await fixture.child([{ text: "both read" }]);
      await child.executor.start({ ...input("the task"), messages: [userText("and one more thing")] }).done;

      expect(userTexts(child.requests()[0])).toEqual(["the task", "and one more thing"]);
    });

    it("reads a message sent while it works before it ends, and takes none once it has ended", async () => {
      const child = await fixture.child([
        // Long enough for the test to send its message while the child still works.
        { text: "working", delayMs: scaled(300) },
        { text: "answered the message" },
      ]);
      const activation = child.executor.start(input("the task"));
      await until(() => child.requests().length === 1);
      expect(activation.send(userText("also check the docs"))).toBe(true);
      const { outcome } = await activation.done;

      expect(outcome).toMatchObject({ status: "completed", text: "answered the message" });
      expect(userTexts(child.requests()[1]).at(-1)).toBe("also check the docs");
      expect(activation.send(userText("too late"))).toBe(false);
    });

    it("turns to a message at once when interrupted, instead of finishing its step", async () => {
      const child = await fixture.child([
        { text: "never seen", delayMs: SLOW_MS },
        { text: "stopped, as asked" },
      ]);
      const activation = child.executor.start(input("a long task"));
      await until(() => child.requests().length === 1);
      activation.send(userText("stop that and report"));
      activation.interrupt();
      const { outcome } = await activation.done;

      expect(outcome).toMatchObject({ status: "completed", text: "stopped, as asked" });
      expect(userTexts(child.requests()[1]).at(-1)).toBe("stop that and report");
      // Its step was cut short: the slow answer never came, so the conversation goes on without it.
      expect(texts(child.requests()[1]?.messages ?? [])).not.toContain("never seen");
    });

    it("stops promptly when its signal aborts, with an aborted outcome naming the reason", async () => {
      const child = await fixture.child([{ text: "never seen", delayMs: SLOW_MS }]);
      const controller = new AbortController();
      const activation = child.executor.start({ ...input("a long task"), signal: controller.signal });
      await until(() => child.requests().length === 1);
      controller.abort("cancelled by its parent (task_cancel)");
      const { outcome } = await activation.done;

      // Not stopped, it would have completed with the slow answer.
      expect(outcome).toMatchObject({ status: "aborted", reason: "cancelled by its parent (task_cancel)" });
      expect(activation.send(userText("too late"))).toBe(false);
    });

    it("ends a failed model call with an error outcome, never a rejection", async () => {
      const child = await fixture.child([{ error: { message: "the provider is down", retryable: false } }]);
      const result: ActivationResult = await child.executor.start(input("a task")).done;

      expect(result.outcome).toMatchObject({ status: "error" });
      expect(result.outcome.status === "error" && result.outcome.error).toContain("the provider is down");
    });

    if (fixture.follows) {
      it("is followed from its ref by a new executor, as after a restart, to the same outcome", async () => {
        const child = await fixture.child([{ text: "done in the end", delayMs: 500 }]);
        const first = child.executor.start(input("a task"));
        expect(first.ref).toBeDefined();
        const reopened = await child.reopen!();
        const followed = reopened.follow!(first.ref!, {
          signal: new AbortController().signal,
          emit: () => {},
        });
        const [original, again] = await Promise.all([first.done, followed.done]);

        expect(again.outcome).toMatchObject({ status: "completed", text: "done in the end" });
        expect(again.outcome.text).toBe(original.outcome.text);
      });
    } else {
      it("lives and dies with its process: no ref to follow it by", async () => {
        const child = await fixture.child([{ text: "done" }]);
        const activation: Activation = child.executor.start(input("a task"));
        await activation.done;

        expect(activation.ref).toBeUndefined();
        expect(child.executor.follow).toBeUndefined();
      });
    }
  });
}

function input(prompt: string, emit: (event: AgentEvent) => void = () => {}) {
  return { prompt, messages: [], signal: new AbortController().signal, emit };
}

/** The texts of a conversation's user and assistant messages, in order. */
export function texts(messages: readonly Message[]): string[] {
  return messages.flatMap((message) =>
    message.role === "tool_result"
      ? []
      : message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])),
  );
}

function userTexts(request: ModelRequest | undefined): string[] {
  return texts((request?.messages ?? []).filter((message) => message.role === "user"));
}

function until(condition: () => boolean): Promise<void> {
  return waitFor(condition, 5_000, "the child's model call");
}
