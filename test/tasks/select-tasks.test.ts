import { expect, it } from "vitest";
import { selectTasks } from "../../src/tasks/select-tasks.ts";
import type { TaskRecord } from "../../src/tasks/task-record.ts";

const record = (taskId: string, createdAt: string) =>
  ({ taskId, createdAt, status: "COMPLETED", parentAgentId: "main", parentSessionId: "s1" }) as TaskRecord;

// Every form the schema allows: whole seconds, one to nine fraction digits, toISOString's 24 characters.
const records = [
  record("a", "2025-01-01T00:00:00.500Z"),
  record("b", "2025-01-01T00:00:00Z"),
  record("c", "2025-01-01T00:00:00.5Z"),
  record("d", "2025-01-01T00:00:01Z"),
  record("e", "2025-01-01T00:00:00.999Z"),
  record("f", "2025-01-01T00:00:00.9999Z"),
  record("g", "2024-12-31T23:59:59.999999Z"),
  record("h", "2025-01-01T00:00:00.000Z"),
  record("i", "2025-01-01T00:00:00.0001Z"),
  record("j", "2025-01-01T00:00:00.100Z"),
  record("k", "2025-01-01T00:00:00.1Z"),
  record("l", "2025-01-01T00:00:00.010Z"),
  // The same millisecond: the id decides, not the digits after it.
  record("m", "2025-01-01T00:00:00.0102Z"),
  record("n", "2025-01-01T00:00:00.0101Z"),
];

it("orders every timestamp form by its time to the millisecond, then by id, newest first", () => {
  const expected = [...records]
    .sort((x, y) => Date.parse(y.createdAt) - Date.parse(x.createdAt) || (x.taskId < y.taskId ? 1 : -1))
    .map((r) => r.taskId);
  expect(expected).toEqual(["d", "f", "e", "c", "a", "k", "j", "n", "m", "l", "i", "h", "b", "g"]);
  // Whatever order they are stored in: every rotation, forwards and backwards.
  for (const order of [records, [...records].reverse()]) {
    for (let shift = 0; shift < order.length; shift++) {
      const rotated = [...order.slice(shift), ...order.slice(0, shift)];
      expect(selectTasks(rotated, {}).map((r) => r.taskId)).toEqual(expected);
    }
  }
});
