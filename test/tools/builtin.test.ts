import { describe, expect, it } from "vitest";
import { z } from "zod";
import { builtinTools } from "../../src/tools/builtin.ts";

describe("builtinTools", () => {
  it("offers bash, read, write, edit, grep, glob, list in that order", () => {
    expect(builtinTools().map((tool) => tool.name)).toEqual([
      "bash",
      "read",
      "write",
      "edit",
      "grep",
      "glob",
      "list",
    ]);
  });

  it("marks exactly the tools that never change anything as read-only", () => {
    const readOnly = builtinTools()
      .filter((tool) => tool.readOnly === true)
      .map((tool) => tool.name);
    expect(readOnly).toEqual(["read", "grep", "glob", "list"]);
  });

  it("loads a description for each tool and describes every argument in its JSON Schema", () => {
    for (const tool of builtinTools()) {
      // Terse on purpose (sent on every call), but a real description, not a placeholder.
      expect(tool.description.length, tool.name).toBeGreaterThan(60);
      const schema = z.toJSONSchema(tool.schema) as {
        type: string;
        properties: Record<string, { description?: string }>;
      };
      expect(schema.type).toBe("object");
      for (const [name, property] of Object.entries(schema.properties)) {
        expect(property.description, `${tool.name}.${name}`).toMatch(/\w/);
      }
    }
  });
});
