import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { pngImage } from "../support/images.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../support/model-server.ts";
import {
  CHILD_MARK,
  registryWith,
  rootTree,
  runTree,
  serverModel,
  tempWorkspace,
  wireMessages,
  wireSystem,
} from "./support/subagent-harness.ts";

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const isChild = (request: RecordedRequest) => wireSystem(request.body).includes(CHILD_MARK);

test("a parent hands a child image files with task's images: the child's first message carries them", async () => {
  const workspace = await tempWorkspace();
  const shot = pngImage(30, 10);
  await writeFile(join(workspace, "shot.png"), shot);
  let rootCalls = 0;
  server = await startModelServer((request) => {
    if (isChild(request)) return { text: "A wide gray bar." };
    rootCalls++;
    return rootCalls === 1
      ? {
          toolCalls: [
            {
              name: "task",
              args: {
                description: "Describe a screenshot",
                prompt: "What does it show?",
                images: ["shot.png"],
              },
            },
          ],
        }
      : { text: "It shows a gray bar." };
  });
  const { config } = rootTree({ workspace, model: serverModel(server), registry: registryWith() });
  const run = await runTree(config, "Have a child look at shot.png");
  expect(run.outcome.status).toBe("completed");
  const child = server.requests.find(isChild);
  const [first] = wireMessages(child?.body ?? {});
  expect(first?.content).toEqual([
    expect.objectContaining({ type: "text", text: "What does it show?" }),
    expect.objectContaining({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: shot.toString("base64") },
    }),
  ]);
});

test("a path in images that is no image fails the task call, and no child starts", async () => {
  const workspace = await tempWorkspace();
  await writeFile(join(workspace, "notes.txt"), "hello");
  server = await startModelServer((request) => {
    if (isChild(request)) return { text: "unexpected" };
    return wireMessages(request.body).length === 1
      ? {
          toolCalls: [{ name: "task", args: { description: "Look", prompt: "Look", images: ["notes.txt"] } }],
        }
      : { text: "ok" };
  });
  const { config } = rootTree({ workspace, model: serverModel(server), registry: registryWith() });
  await runTree(config, "go");
  expect(server.requests.filter(isChild)).toHaveLength(0);
  expect(JSON.stringify(server.requests.at(-1)?.body)).toContain(
    "notes.txt is not an image (PNG, JPEG, GIF or WebP, known by its bytes).",
  );
});
