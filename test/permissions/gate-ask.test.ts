import { describe, expect, it, vi } from "vitest";
import type { AskAnswer, AskHandler } from "../../src/permissions/gate.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import { PermissionDeniedError, type PermissionRequest, type Ruleset } from "../../src/permissions/types.ts";

const rules: Ruleset = [
  { permission: "bash", pattern: "*", action: "ask" },
  { permission: "bash", pattern: "ls *", action: "allow" },
];
const main = { path: ["main"] };
const child = { path: ["main", "general-purpose-2"] };
const bash = (...patterns: string[]): PermissionRequest => ({ permission: "bash", patterns });

type Asked = Parameters<AskHandler>[0];

/** An onAsk whose prompts the test answers by hand, recording what was shown and when. */
function manualPrompt() {
  const shown: { request: Asked; signal: AbortSignal; answer: (answer: AskAnswer) => void }[] = [];
  let active = 0;
  let maxActive = 0;
  const onAsk: AskHandler = (request, signal) =>
    new Promise<AskAnswer>((resolve) => {
      active++;
      maxActive = Math.max(maxActive, active);
      shown.push({
        request,
        signal,
        answer: (answer) => {
          active--;
          resolve(answer);
        },
      });
    });
  return { onAsk, shown, maxActive: () => maxActive };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("permission gate: interactive asks", () => {
  it("shows the asked patterns with the agent path; 'once' allows this call only", async () => {
    const prompt = manualPrompt();
    const gate = createPermissionGate({ rules, mode: "default", onAsk: prompt.onAsk });
    const first = gate({ permission: "bash", patterns: ["ls", "make"], title: "ls && make" }, child);
    await tick();
    expect(prompt.shown[0]?.request).toEqual({
      permission: "bash",
      patterns: ["make"],
      title: "ls && make",
      agentPath: ["main", "general-purpose-2"],
      always: ["make"],
      alwaysRules: ["Bash(make)"],
    });
    prompt.shown[0]?.answer("once");
    await expect(first).resolves.toBeUndefined();
    const second = gate(bash("make"), main);
    await tick();
    expect(prompt.shown).toHaveLength(2);
    prompt.shown[1]?.answer("once");
    await second;
  });

  it("'always' allows the command's prefix for the rest of the session, in child gates too", async () => {
    const prompt = manualPrompt();
    const gate = createPermissionGate({ rules, mode: "default", onAsk: prompt.onAsk });
    const first = gate(bash("npm test"), main);
    await tick();
    expect(prompt.shown[0]?.request.alwaysRules).toEqual(["Bash(npm test:*)"]);
    prompt.shown[0]?.answer("always");
    await first;
    await expect(gate(bash("npm test"), main)).resolves.toBeUndefined();
    await expect(gate(bash("npm test -- --update"), main)).resolves.toBeUndefined();
    await expect(gate.withRules(rules)(bash("npm test"), child)).resolves.toBeUndefined();
    expect(prompt.shown).toHaveLength(1);
    // A prefix of words, not of characters; and another subcommand is another question.
    for (const command of ["npm testx", "npm install"]) {
      const other = gate(bash(command), main);
      await tick();
      expect(prompt.shown.at(-1)?.request.patterns).toEqual([command]);
      prompt.shown.at(-1)?.answer("reject");
      await expect(other).rejects.toThrow(PermissionDeniedError);
    }
  });

  it("'always' on a command a prefix would widen too far approves that exact command", async () => {
    const prompt = manualPrompt();
    const gate = createPermissionGate({ rules, mode: "default", onAsk: prompt.onAsk });
    const first = gate(bash("python3 build.py"), main);
    await tick();
    expect(prompt.shown[0]?.request.alwaysRules).toEqual(["Bash(python3 build.py)"]);
    prompt.shown[0]?.answer("always");
    await first;
    await expect(gate(bash("python3 build.py"), main)).resolves.toBeUndefined();
    const other = gate(bash("python3 -c 'import os'"), main);
    await tick();
    expect(prompt.shown).toHaveLength(2);
    prompt.shown[1]?.answer("reject");
    await expect(other).rejects.toThrow(PermissionDeniedError);
  });

  it("'no' with a message hands the person's words to the model", async () => {
    const prompt = manualPrompt();
    const gate = createPermissionGate({ rules, mode: "default", onAsk: prompt.onAsk });
    const asked = gate(bash("rm -rf dist"), main);
    await tick();
    prompt.shown[0]?.answer({ type: "reject", message: "use npm run clean instead" });
    await expect(asked).rejects.toThrow(/rejected bash 'rm -rf dist'.*"use npm run clean instead"/);
  });

  it("an 'always' never overrides a child's deny rule", async () => {
    const prompt = manualPrompt();
    const gate = createPermissionGate({ rules, mode: "default", onAsk: prompt.onAsk });
    const first = gate(bash("git push"), main);
    await tick();
    prompt.shown[0]?.answer("always");
    await first;
    const strict = gate.withRules([...rules, { permission: "bash", pattern: "git push *", action: "deny" }]);
    await expect(strict(bash("git push"), child)).rejects.toThrow(/denied by rule bash:'git push \*':deny/);
  });

  it("'reject' denies with a message for the model", async () => {
    const gate = createPermissionGate({ rules, mode: "default", onAsk: async () => "reject" });
    await expect(gate(bash("make"), child)).rejects.toThrow(
      "The user rejected bash 'make' for agent main/general-purpose-2. Do not retry it; choose another approach, or report that it was rejected.",
    );
  });

  it("denies when the prompt fails or answers nonsense", async () => {
    const failing = createPermissionGate({
      rules,
      mode: "default",
      onAsk: () => Promise.reject(new Error("tty closed")),
    });
    await expect(failing(bash("make"), main)).rejects.toThrow(
      /prompt for bash 'make' \(agent main\) failed \(tty closed\)/,
    );
    const odd = createPermissionGate({ rules, mode: "default", onAsk: async () => "maybe" as AskAnswer });
    await expect(odd(bash("make"), main)).rejects.toThrow(/invalid answer "maybe"/);
  });

  it("times out to deny, dismisses the prompt and frees the queue", async () => {
    const prompt = manualPrompt();
    const gate = createPermissionGate({ rules, mode: "default", onAsk: prompt.onAsk, askTimeoutMs: 40 });
    const first = gate(bash("make"), child);
    await expect(first).rejects.toThrow(
      "No answer to the permission prompt for bash 'make' (agent main/general-purpose-2) within 40ms; it timed out and is treated as denied.",
    );
    expect(prompt.shown[0]?.signal.aborted).toBe(true);
    const second = gate(bash("make install"), main);
    await tick();
    expect(prompt.shown).toHaveLength(2);
    prompt.shown[1]?.answer("once");
    await expect(second).resolves.toBeUndefined();
  });

  it("counts the timeout from the moment of asking, queueing included", async () => {
    vi.useFakeTimers();
    try {
      const prompt = manualPrompt();
      const ASK_TIMEOUT_MS = 1_000;
      const gate = createPermissionGate({
        rules,
        mode: "default",
        onAsk: prompt.onAsk,
        askTimeoutMs: ASK_TIMEOUT_MS,
      });
      const settled: string[] = [];
      const results = Promise.allSettled(
        ["a", "b", "c"].map((command) => gate(bash(command), main).finally(() => settled.push(command))),
      );
      // One timeout after asking, all three have expired; counted from when each was shown, the two
      // queued behind the first would still wait.
      await vi.advanceTimersByTimeAsync(ASK_TIMEOUT_MS);
      expect(settled.sort()).toEqual(["a", "b", "c"]);
      expect((await results).map((result) => result.status)).toEqual(["rejected", "rejected", "rejected"]);
      expect(prompt.shown.every((shown) => shown.signal.aborted)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("queues concurrent asks from parallel children, one prompt at a time, in order", async () => {
    const prompt = manualPrompt();
    const gate = createPermissionGate({ rules, mode: "default", onAsk: prompt.onAsk });
    const settled = Promise.allSettled(
      ["a", "b", "c"].map((command, index) =>
        gate.withRules(rules)(bash(command), { path: ["main", `general-purpose-${index}`] }),
      ),
    );
    for (let i = 0; i < 3; i++) {
      await tick();
      expect(prompt.shown).toHaveLength(i + 1);
      expect(prompt.shown[i]?.request.agentPath).toEqual(["main", `general-purpose-${i}`]);
      prompt.shown[i]?.answer(i === 1 ? "reject" : "once");
    }
    const results = await settled;
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(prompt.maxActive()).toBe(1);
  });

  it("skips a queued prompt that an earlier 'always' already answered", async () => {
    const prompt = manualPrompt();
    const gate = createPermissionGate({ rules, mode: "default", onAsk: prompt.onAsk });
    const first = gate(bash("npm test"), { path: ["main", "review-1"] });
    const second = gate(bash("npm test"), { path: ["main", "review-2"] });
    await tick();
    prompt.shown[0]?.answer("always");
    await Promise.all([first, second]);
    expect(prompt.shown).toHaveLength(1);
  });

  it("gives up when the asking agent is cancelled", async () => {
    const prompt = manualPrompt();
    const gate = createPermissionGate({ rules, mode: "default", onAsk: prompt.onAsk });
    const controller = new AbortController();
    const pending = gate(bash("make"), child, controller.signal);
    await tick();
    controller.abort();
    await expect(pending).rejects.toThrow(
      /cancelled while bash 'make' \(agent main\/general-purpose-2\) waited/,
    );
    expect(prompt.shown[0]?.signal.aborted).toBe(true);
  });
});
