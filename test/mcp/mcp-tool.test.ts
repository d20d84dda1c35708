import type { Tool as McpToolInfo } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import type { McpConnection } from "../../src/mcp/mcp-connection.ts";
import { MAX_DESCRIPTION_CHARS, mcpTool } from "../../src/mcp/mcp-tool.ts";

/** Only the tool's shape is under test here; calls go through real servers in the other files. */
const unused: McpConnection = {
  server: "s",
  client: undefined as never,
  gone: () => undefined,
  describe: String,
  close: async () => {},
};

function toolFor(info: Partial<McpToolInfo>) {
  return mcpTool({
    name: "mcp__s__t",
    info: { name: "t", inputSchema: { type: "object" }, ...info } as McpToolInfo,
    connection: unused,
    timeoutMs: 1000,
    serverTools: () => ["mcp__s__t"],
  });
}

describe("mcpTool", () => {
  it("sends the server's schema without $schema, and validates with it", () => {
    const tool = toolFor({
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { n: { type: "integer", minimum: 1 } },
        required: ["n"],
      },
    });
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: { n: { type: "integer", minimum: 1 } },
      required: ["n"],
    });
    expect(tool.schema.safeParse({ n: 2 }).success).toBe(true);
    expect(tool.schema.safeParse({ n: 0 }).success).toBe(false);
    expect(tool.schema.safeParse({ n: 2, extra: true }).data).toEqual({ n: 2, extra: true });
  });

  it("lets any object through when zod cannot read the schema (the server validates)", () => {
    const tool = toolFor({
      inputSchema: { type: "object", properties: { q: { $ref: "#/$defs/Missing" } } },
    });
    expect(tool.inputSchema).toEqual({ type: "object", properties: { q: { $ref: "#/$defs/Missing" } } });
    expect(tool.schema.safeParse({ q: 1, anything: "goes" }).success).toBe(true);
    expect(tool.schema.safeParse("not an object").success).toBe(false);
  });

  it("gives the model an object schema even when the server's root is not one", () => {
    expect(toolFor({ inputSchema: { properties: { a: { type: "string" } } } as never }).inputSchema).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
    });
    expect(toolFor({ inputSchema: { type: "string" } as never }).inputSchema).toEqual({
      type: "object",
      additionalProperties: true,
    });
  });

  it("describes itself with the description, else the title, cut to a sane length", () => {
    expect(toolFor({ description: "  Finds things.  ", title: "Finder" }).description).toBe("Finds things.");
    expect(toolFor({ title: "Finder" }).description).toBe("Finder");
    expect(toolFor({ annotations: { title: "From annotations" } }).description).toBe("From annotations");
    expect(toolFor({}).description).toBe("The t tool of an MCP server.");
    const long = toolFor({ description: "x".repeat(5000) }).description;
    expect(long).toHaveLength(MAX_DESCRIPTION_CHARS);
    expect(long.endsWith("…")).toBe(true);
  });

  it("is never marked read-only: a server's readOnlyHint is only its own claim", () => {
    expect(toolFor({ annotations: { readOnlyHint: true } }).readOnly).toBeUndefined();
    expect(toolFor({}).readOnly).toBeUndefined();
  });
});
