import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { userText } from "../../src/model/messages.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { isChildSystem } from "./child-mark.ts";
import { subagentTree } from "./subagent-tree.ts";
import { tempDir } from "./temp-dir.ts";

const CANCEL_MAIN = fileURLToPath(new URL("./cancel-main.ts", import.meta.url));

/** `runs` times: ms from another process's cancel write to the cancelled child's agent_end. */
export async function measureCancelLatency(runs: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await cancelOnce());
  return samples;
}

async function cancelOnce(): Promise<number> {
  const { dir, remove } = await tempDir("cancel");
  try {
    // The root starts one child and answers once it returns; the child's model call never ends by itself.
    const model = scriptedModel((request) => {
      if (isChildSystem(request.system)) return { text: "never", delayMs: 600_000 };
      const answered = request.messages.some((message) => message.role === "tool_result");
      return answered
        ? { text: "The child was cancelled." }
        : {
            toolCalls: [
              {
                name: "task",
                args: { description: "Wait forever", prompt: "Wait.", subagent_type: "explore" },
              },
            ],
          };
    });
    const { config, runtime } = subagentTree({ workspace: dir, model });
    const session = await Session.create({
      workspace: dir,
      agentName: "main",
      model: model.id,
      persist: false,
    });
    await session.append(userText("Start a child."));
    let started!: (taskId: string) => void;
    let ended!: (at: number) => void;
    const childStarted = new Promise<string>((resolve) => {
      started = resolve;
    });
    const childEnded = new Promise<number>((resolve) => {
      ended = resolve;
    });
    const run = runAgentLoop(config, session, (event) => {
      if (event.agentPath.length !== 2) return;
      if (event.type === "agent_start") started(event.sessionId);
      if (event.type === "agent_end") ended(performance.timeOrigin + performance.now());
    });
    const taskId = await childStarted;
    await new Promise((resolve) => setTimeout(resolve, 100)); // inside its model call
    const cancelledAt = await cancelFromAnotherProcess(dir, taskId);
    const endedAt = await childEnded;
    const outcome = await run;
    await runtime.shutdown();
    if (outcome.status !== "completed") throw new Error(`cancel latency: the root ended ${outcome.status}`);
    return endedAt - cancelledAt;
  } finally {
    await remove();
  }
}

function cancelFromAnotherProcess(workspace: string, taskId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CANCEL_MAIN, workspace, taskId], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      err += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) => {
      if (code !== 0) reject(new Error(`cancel-main exited with ${code}: ${err}`));
      else resolve((JSON.parse(out) as { at: number }).at);
    });
  });
}
