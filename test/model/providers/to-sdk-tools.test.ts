import { expect, test } from "vitest";
import { toSdkTools } from "../../../src/model/providers/to-sdk-tools.ts";

test("tool specs become function tools; none becomes undefined", () => {
  const schema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
  expect(toSdkTools([{ name: "read", description: "Read a file", inputSchema: schema }])).toEqual([
    { type: "function", name: "read", description: "Read a file", inputSchema: schema },
  ]);
  expect(toSdkTools([])).toBeUndefined();
});
