import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ElicitationRequest } from "../../src/mcp/client-features.ts";
import { type McpServerSet, openMcpServers } from "../../src/mcp/mcp-servers.ts";
import { PermissionDeniedError } from "../../src/permissions/types.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import type { AnyTool, ToolResult } from "../../src/tools/tool.ts";
import { serverEverythingConfig } from "../support/server-everything.ts";
import { scaled } from "../support/time-scale.ts";
import { makeContext, makeSandbox, runTool, type Sandbox } from "../tools/tool-context.ts";

// Against the reference server, started for real: every tool it offers to a client that declares roots,
// sampling and elicitation works, or fails with a reason the model can act on.

let sandbox: Sandbox;
let set: McpServerSet;
const forms: ElicitationRequest[] = [];
const sampler = scriptedModel(Array.from({ length: 5 }, () => ({ text: "a sampled answer" })));
let samplingAllowed = true;

beforeAll(async () => {
  sandbox = await makeSandbox();
  set = await openMcpServers(
    { everything: serverEverythingConfig() },
    {
      cwd: sandbox.workspace,
      env: process.env,
      features: {
        async elicit(request) {
          forms.push(request);
          const answers: Record<string, string | number | boolean | string[]> = {};
          for (const field of request.fields) {
            if (field.default !== undefined) answers[field.name] = field.default;
            else if (field.options)
              answers[field.name] = field.multiple
                ? [field.options[0]?.value ?? ""]
                : (field.options[0]?.value ?? "");
            else if (field.type === "boolean") answers[field.name] = true;
            else if (field.type === "string")
              answers[field.name] = field.format === "email" ? "ada@example.com" : "Ada";
          }
          return { action: "accept", content: answers };
        },
        sampling: {
          model: () => sampler,
          async approve(request) {
            if (!samplingAllowed)
              throw new PermissionDeniedError(`mcp_sampling '${request.server}' is denied`);
          },
        },
      },
    },
  );
}, scaled(60_000));

afterAll(async () => {
  await set?.close();
});

function tool(name: string): AnyTool {
  const found = set.tools.find((candidate) => candidate.name === `mcp__everything__${name}`);
  if (!found) throw new Error(`no tool ${name} in ${set.tools.map((t) => t.name).join(", ")}`);
  return found;
}

async function call(
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolResult & { progress: string[] }> {
  const { ctx, progress } = makeContext(sandbox.workspace);
  return { ...(await runTool(tool(name), args, ctx)), progress };
}

describe("server-everything", () => {
  it("offers its conditional tools too (roots, elicitation, sampling), and the resource tools", () => {
    expect(set.failures).toEqual([]);
    expect(set.tools.map((t) => t.name).sort()).toEqual(
      [
        "echo",
        "get-annotated-message",
        "get-env",
        "get-resource-links",
        "get-resource-reference",
        "get-roots-list",
        "get-structured-content",
        "get-sum",
        "get-tiny-image",
        "gzip-file-as-resource",
        "simulate-research-query",
        "toggle-simulated-logging",
        "toggle-subscriber-updates",
        "trigger-elicitation-request",
        "trigger-long-running-operation",
        "trigger-sampling-request",
      ]
        .map((name) => `mcp__everything__${name.replace(/[^A-Za-z0-9_-]/g, "_")}`)
        .concat(["list_mcp_resources", "read_mcp_resource"])
        .sort(),
    );
  });

  it("echo, get-sum, get-env, get-structured-content, get-annotated-message and the toggles answer", async () => {
    expect((await call("echo", { message: "hi" })).content).toBe("Echo: hi");
    expect((await call("get-sum", { a: 2, b: 3 })).content).toContain("5");
    expect((await call("get-env")).content).toContain('"PATH"');
    const weather = await call("get-structured-content", { location: "Chicago" });
    expect(weather.details?.structuredContent).toMatchObject({ temperature: expect.any(Number) });
    const annotated = await call("get-annotated-message", { messageType: "success", includeImage: true });
    expect(annotated.images).toHaveLength(1);
    expect((await call("toggle-simulated-logging")).content).toMatch(/logging/i);
    expect((await call("toggle-subscriber-updates")).content).toMatch(/updates/i);
  });

  it("get-tiny-image returns an image the model can see", async () => {
    const result = await call("get-tiny-image");
    expect(result.images).toEqual([expect.objectContaining({ type: "image", mediaType: "image/png" })]);
    expect(result.content).toMatch(/\[image: PNG image, \d+×\d+ px, \d+ KB\]/);
  });

  it("trigger-long-running-operation reports its progress", async () => {
    const result = await call("trigger-long-running-operation", { duration: 0.3, steps: 3 });
    expect(result.progress).toEqual(["1/3 (33%)", "2/3 (67%)", "3/3 (100%)"]);
    expect(result.content).toContain("Long running operation completed");
  });

  it("get-roots-list sees the workspace as the client's root", async () => {
    expect((await call("get-roots-list")).content).toContain(pathToFileURL(sandbox.workspace).href);
  });

  it("trigger-elicitation-request reaches the person's form, with its fields typed", async () => {
    const result = await call("trigger-elicitation-request");
    expect(result.content).toContain("accept");
    const form = forms.at(-1);
    expect(form?.server).toBe("everything");
    expect(form?.fields.find((field) => field.name === "integer")).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: 42,
    });
    expect(form?.fields.find((field) => field.name === "titledSingleSelectEnum")?.options).toEqual([
      { value: "hero-1", title: "Superman" },
      { value: "hero-2", title: "Green Lantern" },
      { value: "hero-3", title: "Wonder Woman" },
    ]);
  });

  it("trigger-sampling-request is answered by the run's model once approved, and fails clearly when not", async () => {
    samplingAllowed = true;
    const result = await call("trigger-sampling-request", { prompt: "say something", maxTokens: 50 });
    expect(result.content).toContain("a sampled answer");
    expect(sampler.requests.at(-1)).toMatchObject({
      system: "You are a helpful test server.",
      maxOutputTokens: 50,
      messages: [
        { role: "user", content: [{ type: "text", text: expect.stringContaining("say something") }] },
      ],
    });
    samplingAllowed = false;
    await expect(call("trigger-sampling-request", { prompt: "again" })).rejects.toThrow(
      /mcp_sampling 'everything' is denied/,
    );
  });

  it("simulate-research-query, a task-augmented tool, runs as a task and asks its question on the way", async () => {
    const result = await call("simulate-research-query", { topic: "python", ambiguous: true });
    expect(result.content).toContain("# Research Report: python");
    expect(result.progress[0]).toBe("Gathering sources...");
    expect(forms.at(-1)?.message).toContain('"python" could have multiple interpretations');
  });

  it("gzip-file-as-resource compresses a data URI into a resource the model can read; a fetch it cannot make fails with the server's reason", async () => {
    const data = `data:text/plain;base64,${Buffer.from("hello").toString("base64")}`;
    const linked = await call("gzip-file-as-resource", {
      name: "hello.gz",
      data,
      outputType: "resourceLink",
    });
    expect(linked.content).toMatch(/\[resource link \S+ \(hello\.gz\): read it with read_mcp_resource/);
    await expect(call("gzip-file-as-resource", { data: "http://127.0.0.1:9/nothing" })).rejects.toThrow(
      /fetch failed|ECONNREFUSED|refused/i,
    );
  });

  it("get-resource-links and get-resource-reference name resources, and read_mcp_resource reads them", async () => {
    const links = await call("get-resource-links", { count: 2 });
    const uri = /\[resource link (\S+)/.exec(links.content)?.[1];
    expect(uri).toBeDefined();
    const reference = await call("get-resource-reference", { resourceType: "Text", resourceId: 2 });
    expect(reference.content).toContain("Resource 2");
    const read = set.tools.find((t) => t.name === "read_mcp_resource") as AnyTool;
    const { ctx, asks } = makeContext(sandbox.workspace);
    const text = await runTool(read, { server: "everything", uri: "demo://resource/dynamic/text/3" }, ctx);
    expect(text.content).toContain("Resource 3");
    expect(asks).toEqual([
      {
        permission: "read_mcp_resource",
        patterns: ["everything:demo://resource/dynamic/text/3"],
        title: "read_mcp_resource everything:demo://resource/dynamic/text/3",
      },
    ]);
  });

  it("list_mcp_resources lists resources and templates", async () => {
    const list = set.tools.find((t) => t.name === "list_mcp_resources") as AnyTool;
    const result = await runTool(list, {}, makeContext(sandbox.workspace).ctx);
    expect(result.content).toContain("everything:");
    expect(result.content).toContain("demo://resource/static/document/architecture.md");
    expect(result.content).toContain("demo://resource/dynamic/text/{resourceId}");
  });

  it("its prompts are listed as chat commands and filled in with their arguments", async () => {
    const prompts = set.servers[0]?.prompts ?? [];
    expect(prompts.map((prompt) => prompt.command)).toContain("mcp__everything__args-prompt");
    const filled = await set.getPrompt("everything", "args-prompt", { city: "Paris" });
    expect(filled.text).toContain("Paris");
  });

  it("reads a resource for an @everything:uri mention", async () => {
    const read = await set.readResource("everything", "demo://resource/static/document/features.md");
    expect(read.text.length).toBeGreaterThan(20);
  });
});

describe("server-everything with no one to ask", () => {
  it("declines its form, so the tool says the user declined; without a model for sampling, that tool is not offered", async () => {
    const box = await makeSandbox();
    const alone = await openMcpServers(
      { everything: serverEverythingConfig() },
      { cwd: box.workspace, env: process.env },
    );
    try {
      const names = alone.tools.map((t) => t.name);
      expect(names).toContain("mcp__everything__trigger-elicitation-request");
      expect(names).not.toContain("mcp__everything__trigger-sampling-request");
      const elicit = alone.tools.find(
        (t) => t.name === "mcp__everything__trigger-elicitation-request",
      ) as AnyTool;
      const result = await runTool(elicit, {}, makeContext(box.workspace).ctx);
      expect(result.content).toContain("declined");
    } finally {
      await alone.close();
    }
  });
});
