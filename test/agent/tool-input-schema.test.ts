import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runAgentLoop } from "../../src/agent/loop.ts";
import { toolSpecs } from "../../src/agent/request.ts";
import { scriptedModel } from "../../src/testing/scripted-model.ts";
import { defineTool } from "../../src/tools/tool.ts";
import { sessionWithPrompt, tempWorkspace, testConfig } from "./support/harness.ts";

/** A schema zod would never produce: `$defs`, a `$ref`, a vendor keyword. */
const serverSchema = {
  type: "object",
  properties: { query: { $ref: "#/$defs/Query" } },
  required: ["query"],
  $defs: { Query: { type: "string", minLength: 1, "x-vendor": true } },
};

const external = defineTool({
  name: "external",
  description: "A tool whose schema comes from elsewhere.",
  schema: z.looseObject({}),
  inputSchema: serverSchema,
  async execute() {
    return "ok";
  },
});

const native = defineTool({
  name: "native",
  description: "A tool with only a zod schema.",
  schema: z.object({ n: z.number().default(1) }),
  async execute() {
    return "ok";
  },
});

describe("toolSpecs and Tool.inputSchema", () => {
  it("sends a tool's inputSchema exactly as given, and the zod schema's JSON Schema otherwise", () => {
    const [externalSpec, nativeSpec] = toolSpecs([external, native]);
    expect(externalSpec).toEqual({
      name: "external",
      description: "A tool whose schema comes from elsewhere.",
      inputSchema: serverSchema,
    });
    expect(nativeSpec?.inputSchema).toEqual({
      type: "object",
      properties: { n: { type: "number", default: 1 } },
    });
  });

  it("leaves out the safe-integer bounds zod gives every integer, and keeps real bounds", () => {
    const counted = defineTool({
      name: "counted",
      description: "Integers with and without bounds.",
      schema: z.object({
        any: z.number().int(),
        some: z.number().int().min(1).max(10),
        list: z.array(z.number().int()),
      }),
      async execute() {
        return "ok";
      },
    });
    expect(toolSpecs([counted])[0]?.inputSchema).toEqual({
      type: "object",
      properties: {
        any: { type: "integer" },
        some: { type: "integer", minimum: 1, maximum: 10 },
        list: { type: "array", items: { type: "integer" } },
      },
      required: ["any", "some", "list"],
    });
  });

  it("converts each tool once", () => {
    expect(toolSpecs([external])[0]).toBe(toolSpecs([external])[0]);
    expect(toolSpecs([native])[0]).toBe(toolSpecs([native])[0]);
  });

  it("is what the model receives", async () => {
    const workspace = await tempWorkspace();
    const model = scriptedModel([{ text: "hi" }]);
    await runAgentLoop(
      { ...testConfig(workspace, model), tools: [external] },
      await sessionWithPrompt(workspace),
      () => {},
    );
    expect(model.requests[0]?.tools).toEqual([
      {
        name: "external",
        description: "A tool whose schema comes from elsewhere.",
        inputSchema: serverSchema,
      },
    ]);
  });
});
