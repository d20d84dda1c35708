import { createHash } from "node:crypto";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { Session } from "../../src/agent/session/session.ts";
import { readTranscript, transcriptMessages } from "../../src/agent/session/transcript.ts";
import { type ImagePart, userMessage } from "../../src/model/messages.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { readTool } from "../../src/tools/read/read.ts";
import { pngImage } from "../support/images.ts";
import { tempWorkspace, testConfig } from "./support/harness.ts";

const png = pngImage(8, 8);
const sha = createHash("sha256").update(png).digest("hex");
const image: ImagePart = {
  type: "image",
  mediaType: "image/png",
  data: png.toString("base64"),
  width: 8,
  height: 8,
};

describe("images in transcripts", () => {
  it("are stored once under .agentry/blobs/<sha256>, and the line names them", async () => {
    const workspace = await tempWorkspace();
    const session = await Session.create({ workspace, agentName: "main", model: "m" });
    await session.append(userMessage("what is this?", [image]));
    await session.append(userMessage("and this one again?", [image]));
    session.close();

    const text = await readFile(session.transcriptPath ?? "", "utf8");
    expect(text).not.toContain(image.data);
    const lines = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[1].message.content[1]).toEqual({
      type: "image",
      mediaType: "image/png",
      blob: sha,
      width: 8,
      height: 8,
    });
    expect(await readdir(join(workspace, ".agentry", "blobs"))).toEqual([sha]);
    expect(await readFile(join(workspace, ".agentry", "blobs", sha))).toEqual(png);
  });

  it("come back with their bytes when the session is read or resumed", async () => {
    const workspace = await tempWorkspace();
    const session = await Session.create({ workspace, agentName: "main", model: "m" });
    await session.append(userMessage("look", [image]));
    session.close();
    const resumed = await Session.resume(workspace, session.id);
    expect(resumed.messages[0]?.content[1]).toEqual(image);
    resumed.close();
  });

  it("a tool result's image is stored the same way and reaches the next model call again after a resume", async () => {
    const workspace = await tempWorkspace();
    await writeFile(join(workspace, "shot.png"), png);
    const model = scriptedModel([
      { toolCalls: [{ name: "read", args: { path: "shot.png" } }] },
      { text: "a gray square" },
      { text: "still a gray square" },
    ]);
    const config = testConfig(workspace, model, { tools: [readTool] });
    const session = await Session.create({ workspace, agentName: "main", model: model.id });
    await session.append(userMessage("read shot.png"));
    await runAgentLoop(config, session, () => {});
    session.close();
    const sent = model.requests[1]?.messages.at(-1);
    expect(sent).toMatchObject({ role: "tool_result", content: [{ images: [image] }] });
    expect(await readFile(session.transcriptPath ?? "", "utf8")).not.toContain(image.data);

    const resumed = await Session.resume(workspace, session.id);
    await resumed.append(userMessage("and now?"));
    await runAgentLoop(config, resumed, () => {});
    resumed.close();
    const again = model.requests[2]?.messages.find((message) => message.role === "tool_result");
    expect(again).toMatchObject({ content: [{ images: [image] }] });
  });

  it("an image whose blob is gone reads back as a line saying so; the rest of the session is intact", async () => {
    const workspace = await tempWorkspace();
    const session = await Session.create({ workspace, agentName: "main", model: "m" });
    await session.append(userMessage("look", [image]));
    session.close();
    await rm(join(workspace, ".agentry", "blobs", sha));
    const transcript = await readTranscript(session.transcriptPath ?? "");
    expect(transcript.warnings).toEqual([]);
    expect(transcriptMessages(transcript)[0]?.content).toEqual([
      { type: "text", text: "look" },
      {
        type: "text",
        text: `[image/png image: its file .agentry/blobs/${sha} is missing or damaged, so it is not shown]`,
      },
    ]);
  });

  it("a blob whose bytes no longer match its name is not trusted", async () => {
    const workspace = await tempWorkspace();
    const session = await Session.create({ workspace, agentName: "main", model: "m" });
    await session.append(userMessage("look", [image]));
    session.close();
    await writeFile(join(workspace, ".agentry", "blobs", sha), "something else");
    const [message] = transcriptMessages(await readTranscript(session.transcriptPath ?? ""));
    expect(message?.content[1]).toMatchObject({ type: "text" });
  });
});
