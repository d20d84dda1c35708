import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseAnswer, terminalAsk } from "../../src/cli/permission-prompt.ts";
import { createPermissionGate } from "../../src/permissions/gate.ts";
import { PermissionDeniedError } from "../../src/permissions/types.ts";

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.setEncoding("utf8").on("data", (chunk: string) => {
    shown += chunk;
  });
  return { input, output, shown: () => shown };
}

const request = {
  permission: "bash",
  patterns: ["rm -rf build"],
  title: "rm -rf build",
  agentPath: ["main"],
  always: ["rm -rf build"],
};

describe("terminal permission prompt", () => {
  it("parses answers, rejecting by default", () => {
    expect(parseAnswer("y")).toBe("once");
    expect(parseAnswer(" YES ")).toBe("once");
    expect(parseAnswer("a")).toBe("always");
    expect(parseAnswer("n")).toBe("reject");
    expect(parseAnswer("")).toBe("reject");
    expect(parseAnswer("maybe")).toBeUndefined();
  });

  it("shows who asks for what, re-asks on nonsense, and returns the answer", async () => {
    const t = terminal();
    const answer = terminalAsk({ input: t.input, output: t.output })(
      { ...request, agentPath: ["main", "explore-1"] },
      new AbortController().signal,
    );
    t.input.write("maybe\n");
    t.input.write("a\n");
    expect(await answer).toBe("always");
    expect(t.shown()).toContain("main › explore-1 wants to bash: rm -rf build");
    expect(t.shown().match(/\[y\] yes, once/g)).toHaveLength(2);
    expect(t.shown()).toContain("[a] always (bash rm -rf build this session)");
  });

  it("gives up with reject when the ask is dismissed or the input ends", async () => {
    const t = terminal();
    const controller = new AbortController();
    const pending = terminalAsk({ input: t.input, output: t.output })(request, controller.signal);
    controller.abort();
    expect(await pending).toBe("reject");
    const closed = terminal();
    const ended = terminalAsk({ input: closed.input, output: closed.output })(
      request,
      new AbortController().signal,
    );
    closed.input.end();
    expect(await ended).toBe("reject");
  });

  it("drives the real gate: 'always' is remembered, 'n' denies", async () => {
    const t = terminal();
    const gate = createPermissionGate({
      rules: [],
      mode: "default",
      onAsk: terminalAsk({ input: t.input, output: t.output }),
    });
    const agent = { path: ["main"] };
    const first = gate({ permission: "bash", patterns: ["make"] }, agent);
    t.input.write("a\n");
    await first;
    await gate({ permission: "bash", patterns: ["make"] }, agent);
    expect(t.shown().match(/wants to/g)).toHaveLength(1);
    const denied = gate({ permission: "bash", patterns: ["rm x"] }, agent);
    t.input.write("n\n");
    await expect(denied).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
