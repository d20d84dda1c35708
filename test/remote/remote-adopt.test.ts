import { afterEach, expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { userText } from "../../src/model/messages.ts";
import { a2aPlacement } from "../../src/remote/client/a2a-placement.ts";
import type { ActivationRef } from "../../src/subagents/run/executor.ts";
import { scriptedModel } from "../../src/testing/index.ts";
import { notificationsIn } from "../subagents/support/notifications.ts";
import { registryWith, rootTree, tempWorkspace } from "../subagents/support/subagent-harness.ts";
import { remoteExecutor } from "../support/a2a-client.ts";
import { startA2aServer, type TestA2aServer } from "../support/a2a-server.ts";

/**
 * A background remote child outlives the agentry process that started it: its record (orphaned by
 * the sweep, with the remote task in `ref`) is taken up on the session's next run, the task followed to
 * its end, and the parent notified once — instead of a child lost as "orphaned".
 */
const servers: TestA2aServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

it("a session's next run follows its orphaned remote task to the end and notifies the parent", async () => {
  const server = await startA2aServer([{ reply: "the late answer", delayMs: 800 }]);
  servers.push(server);
  // The process that started it: the remote task runs on whatever happens to this side.
  const refs: ActivationRef[] = [];
  void remoteExecutor(server.url).start({
    prompt: "Long remote work",
    messages: [],
    signal: new AbortController().signal,
    emit: () => {},
    onRef: (ref) => refs.push(ref),
  }).done;
  while (!refs.some((ref) => ref.kind === "a2a" && ref.taskId)) await new Promise((r) => setTimeout(r, 10));

  const workspace = await tempWorkspace();
  const model = scriptedModel((request) =>
    notificationsIn(request.messages).length > 0
      ? { text: `heard: ${JSON.stringify(notificationsIn(request.messages))}` }
      : { text: "nothing to do yet" },
  );
  const registry = registryWith({
    name: "far",
    description: "A remote helper.",
    prompt: "",
    url: server.url,
  });
  const { config, runtime } = rootTree({
    workspace,
    model,
    registry,
    placements: [a2aPlacement({ env: {} })],
  });
  const session = await Session.create({ workspace, agentName: "main", model: model.id });
  await runtime.store.create({
    taskId: "sub-20260101-000000-remote",
    agentType: "far",
    parentAgentId: "main",
    parentSessionId: session.id,
    childSessionId: "sub-20260101-000000-remote",
    description: "Long remote work",
    owner: "gone-host:4242:1",
    background: true,
    agentPath: ["main", "far-1"],
    model: `a2a:${server.url}`,
    status: "FAILED",
    reason: "orphaned",
    error: "its owner process is gone",
    ref: refs.at(-1)!,
  });
  await session.append(userText("ROOT, resumed"));

  const outcome = await runAgentLoop(config, session, () => {});
  expect(outcome.text).toContain("heard:");
  expect(outcome.text).toContain("the late answer");
  const record = await runtime.store.get("sub-20260101-000000-remote");
  expect(record).toMatchObject({ status: "COMPLETED", result: "the late answer", owner: runtime.owner });
  expect(record?.deliveredAt).toBeDefined();
  // Followed, not sent again.
  expect(server.messages).toHaveLength(1);
  await runtime.shutdown();
});
