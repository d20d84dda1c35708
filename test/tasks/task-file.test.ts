import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import {
  migrateTaskFile,
  parseTaskFile,
  serializeTaskFile,
  TASK_FILE_VERSION,
  type TaskFileMigration,
} from "../../src/tasks/stored/task-file.ts";
import { TaskFileError } from "../../src/tasks/task-errors.ts";

const FIXTURE_V1 = new URL("./fixtures/tasks-v1.json", import.meta.url);
const FIXTURE_V2 = new URL("./fixtures/tasks-v2.json", import.meta.url);

it("reads the v1 fixture and writes it back in the current format", async () => {
  const records = await parseTaskFile(await readFile(FIXTURE_V1, "utf8"), "tasks-v1.json");
  expect(records.map((record) => record.taskId)).toEqual([
    "sub-20250114-093012-k3f9qa",
    "sub-20250114-093015-p0q1r2",
  ]);
  const rewritten = JSON.parse(serializeTaskFile(records));
  expect(rewritten.version).toBe(TASK_FILE_VERSION);
  expect(await parseTaskFile(serializeTaskFile(records), "again")).toEqual(records);
});

it("reads a v1 file as v2: its records have no ref, and keep every field", async () => {
  const text = await readFile(FIXTURE_V1, "utf8");
  const records = await parseTaskFile(text, "tasks-v1.json");
  expect(records).toEqual(JSON.parse(text).records);
  for (const record of records) expect(record).not.toHaveProperty("ref");
});

it("keeps a record's ref through a write and a read", async () => {
  const [first] = await parseTaskFile(await readFile(FIXTURE_V1, "utf8"), "tasks-v1.json");
  const ref = { kind: "a2a" as const, url: "http://127.0.0.1:9/agents/explore", contextId: "c", taskId: "t" };
  const withRef = { ...first!, ref };
  expect(await parseTaskFile(serializeTaskFile([withRef]), "v2.json")).toEqual([withRef]);
});

it("reads a v2 file as v3: its records have no activity or inbox, and keep every field", async () => {
  const text = await readFile(FIXTURE_V2, "utf8");
  const records = await parseTaskFile(text, "tasks-v2.json");
  expect(records).toEqual(JSON.parse(text).records);
  for (const record of records) {
    expect(record).not.toHaveProperty("activity");
    expect(record).not.toHaveProperty("inbox");
  }
  expect(JSON.parse(serializeTaskFile(records)).version).toBe(3);
});

it("keeps a record's activity and inbox through a write and a read", async () => {
  const [first] = await parseTaskFile(await readFile(FIXTURE_V2, "utf8"), "tasks-v2.json");
  const withBoth = {
    ...first!,
    activity: { turns: 2, tokensIn: 10, tokensOut: 5, tools: [{ name: "bash", arg: "npm test" }] },
    inbox: [{ id: "m-1", text: "look at b.ts too", at: "2026-03-01T10:15:31.000Z" }],
  };
  expect(await parseTaskFile(serializeTaskFile([withBoth]), "v3.json")).toEqual([withBoth]);
});

it("applies migrations step by step, in order", () => {
  const steps: Record<number, TaskFileMigration> = {
    1: (file) => ({ ...file, version: 2, trail: ["1→2"] }),
    2: (file) => ({ ...file, version: 3, trail: [...(file.trail as string[]), "2→3"] }),
  };
  expect(migrateTaskFile({ version: 1, records: [] }, 1, 3, "f", steps)).toEqual({
    version: 3,
    records: [],
    trail: ["1→2", "2→3"],
  });
});

it("names the file when a migration step is missing or produces the wrong version", () => {
  expect(() =>
    migrateTaskFile({ version: 1 }, 1, 3, "old.json", { 1: (f) => ({ ...f, version: 2 }) }),
  ).toThrow("Cannot read task file old.json: no migration from format v2 to v3.");
  expect(() => migrateTaskFile({ version: 1 }, 1, 2, "old.json", { 1: (f) => f })).toThrow(
    /old\.json: the migration from v1 did not produce a v2 file/,
  );
});

it.each([
  ["not JSON", "{", /f\.json: not valid JSON/],
  ["an array", "[]", /expected a JSON object \{ version, records \}/],
  ["no version", '{"records":[]}', /missing or invalid "version" \(undefined\)/],
  ["a string version", '{"version":"1","records":[]}', /invalid "version" \("1"\)/],
  ["a newer version", '{"version":4,"records":[]}', /format v4 by a newer agentry; this one reads up to v3/],
  ["no records", '{"version":1}', /f\.json: records: /],
])("rejects %s with an error naming the file", async (_, text, message) => {
  const parse = parseTaskFile(text, "f.json");
  await expect(parse).rejects.toThrow(TaskFileError);
  await expect(parse).rejects.toThrow(message);
});

it("rejects a file holding the same task twice", async () => {
  const file = JSON.parse(await readFile(FIXTURE_V1, "utf8"));
  file.records.push(file.records[0]);
  await expect(parseTaskFile(JSON.stringify(file), "dup.json")).rejects.toThrow(
    "dup.json: task sub-20250114-093012-k3f9qa appears twice.",
  );
});

it.each([
  ["a number", "42", /f\.json: expected a JSON object \{ version, records \}/],
  ["null", "null", /f\.json: expected a JSON object \{ version, records \}/],
  ["a string", '"tasks"', /f\.json: expected a JSON object \{ version, records \}/],
  ["version 0", '{"version":0,"records":[]}', /f\.json: missing or invalid "version" \(0\)/],
  ["a fractional version", '{"version":1.5,"records":[]}', /f\.json: missing or invalid "version" \(1\.5\)/],
  ["records that are not a list", '{"version":3,"records":{}}', /f\.json: records: /],
])("rejects %s as a task file, naming the file", async (_, text, message) => {
  const parse = parseTaskFile(text, "f.json");
  await expect(parse).rejects.toThrow(TaskFileError);
  await expect(parse).rejects.toThrow(message);
});

it("keeps what it failed on as the error's cause: the JSON parser's error, or the schema's issues", async () => {
  const failure = (text: string) =>
    parseTaskFile(text, "f.json").then(
      () => expect.unreachable("it parsed"),
      (error: unknown) => error as Error,
    );
  const notJson = await failure("{");
  expect(notJson.cause).toBeInstanceOf(SyntaxError);
  const badRecord = await failure('{"version":3,"records":[{"taskId":"t1"}]}');
  expect(badRecord).toBeInstanceOf(TaskFileError);
  expect((badRecord.cause as { issues?: unknown[] }).issues?.length).toBeGreaterThan(0);
});

it("writes one record per line, and no records as an empty list", async () => {
  const [first] = await parseTaskFile(await readFile(FIXTURE_V2, "utf8"), "tasks-v2.json");
  expect(serializeTaskFile([])).toBe('{"version":3,"records":[]}\n');
  expect(serializeTaskFile([first!, first!])).toBe(
    `{"version":3,"records":[\n${JSON.stringify(first)},\n${JSON.stringify(first)}\n]}\n`,
  );
});

it("reads a valid current file without loading zod; a file the quick check refuses loads it to say why", async () => {
  const current = serializeTaskFile(await parseTaskFile(await readFile(FIXTURE_V2, "utf8"), "tasks-v2.json"));
  const zodLoaded = async (text: string) => {
    const script = `
      import { registerHooks } from "node:module";
      let zod = false;
      registerHooks({ resolve(specifier, context, next) {
        const resolved = next(specifier, context);
        if (resolved.url.includes("/node_modules/zod/")) zod = true;
        return resolved;
      } });
      const { parseTaskFile } = await import(${JSON.stringify(new URL("../../src/tasks/stored/task-file.ts", import.meta.url).href)});
      await parseTaskFile(${JSON.stringify(text)}, "f.json").catch(() => {});
      process.stdout.write(String(zod));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]);
    return stdout;
  };
  expect(await zodLoaded(current)).toBe("false");
  // A field it does not know (from a newer agentry) sends the file through the schema, which strips it.
  expect(await zodLoaded(current.replace('"taskId"', '"future":1,"taskId"'))).toBe("true");
});
