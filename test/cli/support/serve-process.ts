import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { type Message, Role, type SendMessageRequest } from "@a2a-js/sdk";
import type { ModelServer } from "../../support/model-server.ts";
import { waitFor } from "../../support/processes.ts";
import { finished, spawnCli, type TestWorkspace } from "./cli-process.ts";
import { providerEnv } from "./provider-env.ts";

export const SERVE_PROCESS_TOKEN = "a-long-enough-token-0123456789";

/** `agentry serve` as a process, once it printed its agents' URLs. */
export interface ServeProcess {
  process: ChildProcess;
  /** The printed URL of `agent`. */
  url(agent: string): string;
  stderr(): string;
  /** Resolves when the process has exited. */
  exited: Promise<unknown>;
}

/**
 * Starts `agentry serve --port 0` in `ws` against `model`, with the token `SERVE_PROCESS_TOKEN`; the
 * caller stops it (`cleanup` gets a step that sends SIGTERM to a process still running).
 */
export async function startServeProcess(
  ws: TestWorkspace,
  model: ModelServer,
  cleanup: Array<() => Promise<unknown>>,
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const child = spawnCli(["serve", "--port", "0"], {
    cwd: ws.dir,
    env: { ...ws.env, ...providerEnv(model, "anthropic"), AGENTRY_SERVE_TOKEN: SERVE_PROCESS_TOKEN, ...env },
  });
  const exited = finished(child);
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await waitFor(() => /^explore\t\S+$/m.test(stdout), 30_000, `agentry serve to start (stderr: ${stderr})`);
  const urls = new Map(
    stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t") as [string, string]),
  );
  return { process: child, url: (agent) => urls.get(agent) ?? "", stderr: () => stderr, exited };
}

/** A SendMessage request of one text message in `contextId`. */
export function textRequest(text: string, contextId: string, returnImmediately = false): SendMessageRequest {
  const message: Message = {
    messageId: randomUUID(),
    contextId,
    taskId: "",
    role: Role.ROLE_USER,
    parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "" }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return {
    tenant: "",
    message,
    configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately },
    metadata: undefined,
  };
}
