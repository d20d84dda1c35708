import { isTaskRecord } from "../check-task-record.ts";
import { TaskFileError } from "../task-errors.ts";
import type { TaskRecord } from "../task-record.ts";
import type { TaskFileSchema } from "./task-file-schema.ts";

/**
 * The stored form of one parent session's records: `{ version, records: [...] }`. Writers always
 * write `TASK_FILE_VERSION`; readers upgrade older files step by step through `TASK_FILE_MIGRATIONS`,
 * so a file written by any earlier agentry still loads. Bump the version when a record's shape
 * changes, add the step, and pin the old version with a fixture in `test/tasks/fixtures/`.
 */
export const TASK_FILE_VERSION = 3;

/** A parsed JSON object of some version, before it is validated against the current schema. */
export type RawTaskFile = Record<string, unknown>;
/** Turns a version-`n` file into a version-`n + 1` file (including its `version` field). */
export type TaskFileMigration = (file: RawTaskFile) => RawTaskFile;

/**
 * v1 → v2: records may carry `ref` (where a remote or queued child runs). A v1 record has none, so it
 * reads as it is; the version moved so that an agentry that does not know `ref` refuses a v2 file
 * instead of stripping the field and losing track of where such a child runs.
 * v2 → v3: records may carry `activity` (what a running child does now) and `inbox` (messages from
 * other processes for its owner to deliver). A v2 record has neither; the version moved so that an
 * agentry that does not know `inbox` refuses a v3 file instead of stripping messages not yet delivered.
 */
export const TASK_FILE_MIGRATIONS: Readonly<Record<number, TaskFileMigration>> = {
  1: (file) => ({ ...file, version: 2 }),
  2: (file) => ({ ...file, version: 3 }),
};

/** Applies the steps from `fromVersion` up to `toVersion`; `location` names the file in errors. */
export function migrateTaskFile(
  file: RawTaskFile,
  fromVersion: number,
  toVersion: number,
  location: string,
  migrations: Readonly<Record<number, TaskFileMigration>> = TASK_FILE_MIGRATIONS,
): RawTaskFile {
  let current = file;
  for (let version = fromVersion; version < toVersion; version++) {
    const step = migrations[version];
    if (!step) throw new TaskFileError(location, `no migration from format v${version} to v${version + 1}.`);
    current = step(current);
    if (current.version !== version + 1) {
      throw new TaskFileError(
        location,
        `the migration from v${version} did not produce a v${version + 1} file.`,
      );
    }
  }
  return current;
}

/**
 * Parses a stored file into its records. Throws `TaskFileError` naming `location` for anything that
 * is not a readable task file: records are never silently dropped, and a bad file is never rewritten.
 * Records pass `isTaskRecord` (fast, no zod); when one does not, the whole file goes through the zod
 * schema, which either words the error or accepts the file (e.g. a field it strips).
 */
export async function parseTaskFile(
  text: string,
  location: string,
  migrations: Readonly<Record<number, TaskFileMigration>> = TASK_FILE_MIGRATIONS,
): Promise<TaskRecord[]> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new TaskFileError(location, `not valid JSON (${(error as Error).message}).`, { cause: error });
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new TaskFileError(location, "expected a JSON object { version, records }.");
  }
  const raw = json as RawTaskFile;
  const version = raw.version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) {
    throw new TaskFileError(location, `missing or invalid "version" (${JSON.stringify(version)}).`);
  }
  if (version > TASK_FILE_VERSION) {
    throw new TaskFileError(
      location,
      `written in format v${version} by a newer agentry; this one reads up to v${TASK_FILE_VERSION}.`,
    );
  }
  const current = migrateTaskFile(raw, version, TASK_FILE_VERSION, location, migrations);
  const records = checkedRecords(current) ?? (await schemaRecords(current, location));
  const seen = new Set<string>();
  for (const record of records) {
    if (seen.has(record.taskId)) throw new TaskFileError(location, `task ${record.taskId} appears twice.`);
    seen.add(record.taskId);
  }
  return records;
}

/** The records when the fast check accepts the file as it is; `undefined` sends it to the schema. */
function checkedRecords(file: RawTaskFile): TaskRecord[] | undefined {
  const { records } = file;
  if (file.version !== TASK_FILE_VERSION || !Array.isArray(records)) return undefined;
  for (const record of records) if (!isTaskRecord(record)) return undefined;
  return records as TaskRecord[];
}

async function schemaRecords(file: RawTaskFile, location: string): Promise<TaskRecord[]> {
  const parsed = (await taskFileSchema()).safeParse(file);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "file";
    throw new TaskFileError(location, `${where}: ${issue?.message ?? "invalid"}.`, { cause: parsed.error });
  }
  return parsed.data.records;
}

let schema: Promise<TaskFileSchema> | undefined;

/** Loaded on first need: a reader of valid files never loads zod. */
function taskFileSchema(): Promise<TaskFileSchema> {
  schema ??= import("./task-file-schema.ts").then((module) => module.taskFileSchema(TASK_FILE_VERSION));
  return schema;
}

/** One record per line: compact enough to parse fast, still readable and greppable by a person. */
export function serializeTaskFile(records: readonly TaskRecord[]): string {
  const lines = records.map((record) => JSON.stringify(record)).join(",\n");
  return `{"version":${TASK_FILE_VERSION},"records":[${lines && `\n${lines}\n`}]}\n`;
}
