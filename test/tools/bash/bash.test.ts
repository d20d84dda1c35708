import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { bashPermissionPatterns } from "../../../src/permissions/bash-command.ts";
import { PermissionDeniedError } from "../../../src/permissions/types.ts";
import { bashTool } from "../../../src/tools/bash/bash.ts";
import { ToolError } from "../../../src/tools/tool.ts";
import { isRunning, until } from "../../support/processes.ts";
import { scaled } from "../../support/time-scale.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tool-context.ts";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});

const bash = (args: Record<string, unknown>) => runTool(bashTool, args, makeContext(box.workspace).ctx);

describe("bash", () => {
  it("returns the output of a command run in the workspace", async () => {
    const result = await bash({ command: "pwd; echo hi >&2" });
    expect(result.content).toBe(`${box.workspace}\nhi`);
    expect(result.details).toEqual({ exitCode: 0, timedOut: false, aborted: false });
  });

  it("appends the exit code when it is not 0", async () => {
    const result = await bash({ command: "echo failing; exit 2" });
    expect(result.content).toBe("failing\n\nexit code 2");
    expect(result.details).toMatchObject({ exitCode: 2 });
    expect((await bash({ command: "exit 1" })).content).toBe("(no output)\n\nexit code 1");
  });

  it("asks for bash permission with the command's patterns and its description as title", async () => {
    const command = "ls -la; git status > out.txt";
    const { ctx, asks } = makeContext(box.workspace);
    await runTool(bashTool, { command, description: "List files and save status" }, ctx);
    expect(asks).toEqual([
      { permission: "bash", patterns: bashPermissionPatterns(command), title: "List files and save status" },
    ]);
  });

  it("runs nothing when permission is denied", async () => {
    const { ctx } = makeContext(box.workspace, {
      ask: async () => {
        throw new PermissionDeniedError("bash is not allowed here");
      },
    });
    await expect(runTool(bashTool, { command: "touch ran" }, ctx)).rejects.toThrow(
      "bash is not allowed here",
    );
    await expect(readFile(join(box.workspace, "ran"))).rejects.toThrow(/ENOENT/);
  });

  it("streams output to progress as it arrives", async () => {
    const { ctx, progress } = makeContext(box.workspace);
    const go = join(box.workspace, "go");
    const pending = runTool(
      bashTool,
      { command: `echo one; while [ ! -e ${go} ]; do sleep 0.01; done; echo two` },
      ctx,
    );
    expect(await until(() => progress.join("").includes("one"), 2000)).toBe(true);
    expect(progress.join("")).not.toContain("two");
    await writeFile(go, "");
    await pending;
    expect(progress.join("")).toBe("one\ntwo\n");
  });

  it("times out with a message suggesting a larger timeout, and kills the children", async () => {
    // Long enough for `echo partial` on a loaded machine; without it `wait` would outlast any test bound.
    const timeoutS = scaled(500) / 1000;
    const error = await bash({
      command: `sleep 600 & echo $! > pid; echo partial; wait`,
      timeout: timeoutS,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toBe(
      `partial\n\nCommand timed out after ${timeoutS} s and was killed with everything it started. If it needs longer, pass a larger timeout (max 600).`,
    );
    const pid = Number(await readFile(join(box.workspace, "pid"), "utf8"));
    expect(await until(() => !isRunning(pid), 2000)).toBe(true);
  });

  it("on abort, kills `sleep 100` and its children", async () => {
    const controller = new AbortController();
    const { ctx } = makeContext(box.workspace, { signal: controller.signal });
    const pending = runTool(
      bashTool,
      { command: "sh -c 'sleep 100 & echo $! > inner; wait' & echo $! > outer; wait" },
      ctx,
    );
    const readPid = async (name: string) =>
      Number(await readFile(join(box.workspace, name), "utf8").catch(() => "0"));
    expect(await until(async () => (await readPid("inner")) > 0 && (await readPid("outer")) > 0, 3000)).toBe(
      true,
    );
    controller.abort();
    await expect(pending).rejects.toThrow("Command aborted.");
    for (const pid of [await readPid("outer"), await readPid("inner")]) {
      expect(await until(() => !isRunning(pid), 2000)).toBe(true);
    }
  });

  it("does not start when the run is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const { ctx } = makeContext(box.workspace, { signal: controller.signal });
    await expect(runTool(bashTool, { command: "touch ran" }, ctx)).rejects.toThrow("the run was aborted");
    await expect(readFile(join(box.workspace, "ran"))).rejects.toThrow(/ENOENT/);
  });

  it("runs concurrent calls in parallel", async () => {
    // Each call logs its start and end; run one after the other, the first would end before the second starts.
    const step = (name: string) => `echo start-${name} >> log; sleep 0.3; echo end-${name} >> log`;
    await Promise.all([bash({ command: step("a") }), bash({ command: step("b") })]);
    const log = (await readFile(join(box.workspace, "log"), "utf8")).trim().split("\n");
    expect(log.slice(0, 2).every((line) => line.startsWith("start-"))).toBe(true);
    expect(log.slice(2).every((line) => line.startsWith("end-"))).toBe(true);
  });

  it("disables pagers, since nobody can press a key", async () => {
    expect((await bash({ command: 'echo "$PAGER $GIT_PAGER"' })).content).toBe("cat cat");
  });

  it("rejects bad arguments through its schema", () => {
    expect(() => bashTool.schema.parse({ command: "" })).toThrow();
    expect(() => bashTool.schema.parse({ command: "ls", timeout: 601 })).toThrow();
    expect(() => bashTool.schema.parse({ command: "ls", timeout: 0 })).toThrow();
  });
});
