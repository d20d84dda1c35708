import { isDeepStrictEqual } from "node:util";
import { expect, it } from "vitest";
import { isTaskRecord, TIMESTAMP } from "../../src/tasks/check-task-record.ts";
import { parseTaskFile, TASK_FILE_VERSION } from "../../src/tasks/stored/task-file.ts";
import { TaskFileError } from "../../src/tasks/task-errors.ts";
import { type TaskRecord, taskRecordSchema } from "../../src/tasks/task-record.ts";

// `isTaskRecord` is the store's fast path; the zod schema decides whatever it refuses. It must never
// accept what the schema refuses, and should accept what the schema takes unchanged.

const full: TaskRecord = {
  taskId: "sub-20250114-093012-k3f9qa",
  agentType: "explore",
  parentAgentId: "main",
  parentSessionId: "20250114-093000-aaaaaa",
  childSessionId: "sub-20250114-093012-k3f9qa",
  description: "Find the config loader",
  status: "FAILED",
  result: "partial text",
  error: "boom",
  reason: "orphaned",
  cancelRequested: true,
  createdAt: "2025-01-14T09:30:12.000Z",
  updatedAt: "2025-01-14T09:31:00.000Z",
  deliveredAt: "2025-01-14T09:31:01.000Z",
  owner: "host:4242",
  usage: { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, cost: 0.5 },
  model: "anthropic:claude-haiku-4-5",
  agentPath: ["main", "explore-1"],
  background: false,
  ref: { kind: "a2a", url: "http://127.0.0.1:8123/agents/explore", contextId: "ctx-1", taskId: "t-1" },
  activity: {
    turns: 3,
    tokensIn: 1200,
    tokensOut: 80,
    cost: 0.01,
    tools: [{ name: "read", arg: "src/a.ts" }],
    lastTool: { name: "read", arg: "src/a.ts" },
    waiting: { reason: "limit", limit: 4 },
    compacting: 90_000,
  },
  inbox: [{ id: "m-1", text: "also check the tests", at: "2025-01-14T09:30:30.000Z" }],
};
const activity = full.activity!;
const {
  result: _r,
  error: _e,
  reason: _why,
  deliveredAt: _d,
  usage: _u,
  model: _m,
  agentPath: _p,
  ref: _ref,
  activity: _activity,
  inbox: _inbox,
  ...minimal
} = full;

const valid: Array<[string, unknown]> = [
  ["every field", full],
  ["only the required fields", minimal],
  ["usage without cost", { ...full, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }],
  ["an empty agentPath", { ...full, agentPath: [] }],
  ["whole seconds", { ...full, createdAt: "2025-01-14T09:30:12Z" }],
  ["a long fraction", { ...full, updatedAt: "2025-01-14T09:30:12.123456789Z" }],
  ["a leap day", { ...full, createdAt: "2024-02-29T00:00:00.000Z" }],
  ["a leap day of a 400th year", { ...full, createdAt: "2000-02-29T23:59:59.999Z" }],
  ["empty strings where any string goes", { ...full, agentType: "", description: "", owner: "" }],
  ["a 128-character id", { ...full, taskId: `a${"b".repeat(127)}` }],
  ["an a2a ref before the agent answered", { ...full, ref: { kind: "a2a", url: "u", contextId: "c" } }],
  ["a queue ref", { ...full, ref: { kind: "queue", queue: "agentry", jobId: "j-1" } }],
  [
    "an activity with only its required fields",
    { ...full, activity: { turns: 0, tokensIn: 0, tokensOut: 0, tools: [] } },
  ],
  ["an empty inbox", { ...full, inbox: [] }],
];

const without = (field: keyof TaskRecord) => {
  const { [field]: _, ...rest } = full;
  return rest;
};
const invalid: Array<[string, unknown]> = [
  ["null", null],
  ["an array", [full]],
  ["a string", "record"],
  ...(
    [
      "taskId",
      "agentType",
      "parentAgentId",
      "parentSessionId",
      "childSessionId",
      "description",
      "status",
      "cancelRequested",
      "createdAt",
      "updatedAt",
      "owner",
      "background",
    ] as const
  ).map((field): [string, unknown] => [`no ${field}`, without(field)]),
  ["a taskId with a slash", { ...full, taskId: "../x" }],
  ["a taskId starting with a dot", { ...full, taskId: ".hidden" }],
  ["a taskId starting with a dash", { ...full, taskId: "-rf" }],
  ["a 129-character id", { ...full, parentAgentId: `a${"b".repeat(128)}` }],
  ["an empty parentSessionId", { ...full, parentSessionId: "" }],
  ["a numeric taskId", { ...full, taskId: 7 }],
  ["a numeric agentType", { ...full, agentType: 1 }],
  ["a null childSessionId", { ...full, childSessionId: null }],
  ["an unknown status", { ...full, status: "DONE" }],
  ["a lower-case status", { ...full, status: "running" }],
  ["an unknown reason", { ...full, reason: "bored" }],
  ["a string cancelRequested", { ...full, cancelRequested: "false" }],
  ["a numeric background", { ...full, background: 1 }],
  ["a numeric result", { ...full, result: 42 }],
  ["a null error", { ...full, error: null }],
  ["an optional field set to undefined", { ...full, model: undefined }],
  ["a date without time", { ...full, createdAt: "2025-01-14" }],
  ["a time zone offset", { ...full, createdAt: "2025-01-14T09:30:12+01:00" }],
  ["no zone", { ...full, updatedAt: "2025-01-14T09:30:12" }],
  ["no seconds", { ...full, updatedAt: "2025-01-14T09:30Z" }],
  ["a space instead of T", { ...full, createdAt: "2025-01-14 09:30:12Z" }],
  ["February 30", { ...full, createdAt: "2025-02-30T00:00:00.000Z" }],
  ["a leap day of a common year", { ...full, createdAt: "2025-02-29T00:00:00.000Z" }],
  ["a leap day of 1900", { ...full, createdAt: "1900-02-29T00:00:00.000Z" }],
  ["hour 24", { ...full, createdAt: "2025-01-14T24:00:00.000Z" }],
  ["second 60", { ...full, createdAt: "2025-01-14T23:59:60.000Z" }],
  ["a lower-case z", { ...full, deliveredAt: "2025-01-14T09:30:12.000z" }],
  ["an epoch number", { ...full, deliveredAt: 1736847012000 }],
  ["usage that is null", { ...full, usage: null }],
  ["usage without output", { ...full, usage: { input: 1, cacheRead: 0, cacheWrite: 0 } }],
  ["usage with a string count", { ...full, usage: { ...full.usage, input: "1" } }],
  ["usage with a string cost", { ...full, usage: { ...full.usage, cost: "0.5" } }],
  ["an agentPath of numbers", { ...full, agentPath: ["main", 2] }],
  ["an agentPath that is a string", { ...full, agentPath: "main/explore-1" }],
  ["a ref of an unknown kind", { ...full, ref: { kind: "grpc", url: "u", contextId: "c" } }],
  ["an a2a ref without a contextId", { ...full, ref: { kind: "a2a", url: "u" } }],
  ["an a2a ref with an empty url", { ...full, ref: { kind: "a2a", url: "", contextId: "c" } }],
  [
    "an a2a ref with a numeric taskId",
    { ...full, ref: { kind: "a2a", url: "u", contextId: "c", taskId: 7 } },
  ],
  [
    "an a2a ref with a queue's field",
    { ...full, ref: { kind: "a2a", url: "u", contextId: "c", jobId: "j" } },
  ],
  ["a queue ref without a jobId", { ...full, ref: { kind: "queue", queue: "q" } }],
  ["a ref that is a string", { ...full, ref: "a2a:u" }],
  ["an activity with fractional turns", { ...full, activity: { ...activity, turns: 1.5 } }],
  ["an activity with negative tokens", { ...full, activity: { ...activity, tokensIn: -1 } }],
  ["an activity without tools", { ...full, activity: { turns: 1, tokensIn: 0, tokensOut: 0 } }],
  ["an activity tool without its arg", { ...full, activity: { ...activity, tools: [{ name: "read" }] } }],
  [
    "an activity with nine tools",
    { ...full, activity: { ...activity, tools: Array(9).fill({ name: "bash", arg: "sleep 1" }) } },
  ],
  [
    "an activity waiting for an unknown reason",
    { ...full, activity: { ...activity, waiting: { reason: "bored", limit: 1 } } },
  ],
  ["an activity with a field it does not know", { ...full, activity: { ...activity, phase: "x" } }],
  [
    "an inbox message without text",
    { ...full, inbox: [{ id: "m-1", text: "", at: "2025-01-14T09:30:30.000Z" }] },
  ],
  [
    "an inbox message with a bad id",
    { ...full, inbox: [{ id: "../m", text: "hi", at: "2025-01-14T09:30:30.000Z" }] },
  ],
  [
    "an inbox message too long",
    { ...full, inbox: [{ id: "m", text: "x".repeat(20_001), at: "2025-01-14T09:30:30.000Z" }] },
  ],
  ["an inbox of seventeen", { ...full, inbox: Array(17).fill(full.inbox![0]) }],
  ["an inbox that is an object", { ...full, inbox: { id: "m" } }],
];

/** What the fast check must say: yes exactly when the schema accepts the value as it is. */
function schemaTakesUnchanged(record: unknown): boolean {
  const parsed = taskRecordSchema.safeParse(record);
  return parsed.success && isDeepStrictEqual(parsed.data, record);
}

it.each(valid)("accepts %s, as the schema does, unchanged", (_, record) => {
  expect(schemaTakesUnchanged(record)).toBe(true);
  expect(isTaskRecord(record)).toBe(true);
});

it.each(invalid)("refuses %s, as the schema does", (_, record) => {
  expect(taskRecordSchema.safeParse(record).success).toBe(false);
  expect(isTaskRecord(record)).toBe(false);
});

// Generated from the schema, so a field added to it is covered before anyone writes a case for it.
const fields = Object.keys(taskRecordSchema.shape) as Array<keyof TaskRecord>;
const variants = fields.flatMap(
  (field): Array<[string, unknown]> => [
    [`without ${field}`, without(field)],
    [`${field} as an object`, { ...full, [field]: {} }],
    [`${field} as an array of numbers`, { ...full, [field]: [1] }],
    [`${field} as null`, { ...full, [field]: null }],
  ],
);
it.each(variants)("agrees with the schema on a record %s", (_, record) => {
  expect(isTaskRecord(record)).toBe(schemaTakesUnchanged(record));
});

it("leaves records with fields the schema strips to the schema", () => {
  const extra = { ...full, priority: "high" };
  const usageExtra = { ...full, usage: { ...full.usage, reasoning: 5 } };
  const proto = JSON.parse(`{"__proto__": {"x": 1}, ${JSON.stringify(full).slice(1)}`) as unknown;
  for (const record of [extra, usageExtra, proto]) {
    expect(isTaskRecord(record)).toBe(false);
    expect(taskRecordSchema.parse(record)).toEqual(full);
  }
});

it("uses the schema's own timestamp pattern", () => {
  const format = taskRecordSchema.shape.createdAt._zod.def;
  expect(format).toMatchObject({ format: "datetime", offset: false, local: false });
  expect(TIMESTAMP.source).toBe(format.pattern?.source);
});

// parseTaskFile: the fast path's result, or the schema's verdict on the whole file.
const file = (...records: unknown[]) => JSON.stringify({ version: TASK_FILE_VERSION, records });

it("reads a file the fast check accepts as the schema would", async () => {
  const records = await parseTaskFile(file(full, { ...minimal, taskId: "t2" }), "f.json");
  expect(records).toEqual([full, { ...minimal, taskId: "t2" }]);
});

it("reads a record with a field the schema strips, without the field", async () => {
  const records = await parseTaskFile(file(minimal, { ...full, taskId: "t2", priority: "high" }), "f.json");
  expect(records).toEqual([minimal, { ...full, taskId: "t2" }]);
  expect(records[1]).not.toHaveProperty("priority");
});

// JSON has no `undefined`, so a file cannot hold that one.
const storable = invalid.filter(([what]) => !what.includes("undefined"));
it.each(storable)("rejects a file holding a record with %s, with the schema's message", async (_, record) => {
  const parse = parseTaskFile(file(minimal, record), "f.json");
  await expect(parse).rejects.toThrow(TaskFileError);
  const issue = taskRecordSchema.safeParse(record).error?.issues[0];
  const where = ["records", 1, ...(issue?.path ?? [])].join(".");
  await expect(parse).rejects.toThrow(`Cannot read task file f.json: ${where}: ${issue?.message}.`);
});
