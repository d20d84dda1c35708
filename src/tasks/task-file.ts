import { z } from "zod";
import { TaskFileError } from "./task-errors.ts";
import { type TaskRecord, taskRecordSchema } from "./task-record.ts";

/**
 * The stored form of one parent session's records: `{ version, records: [...] }`. Writers always
 * write `TASK_FILE_VERSION`; readers upgrade older files step by step through `TASK_FILE_MIGRATIONS`,
 * so a file written by any earlier agentry still loads. Bump the version when a record's shape
 * changes, add the step, and pin the old version with a fixture in `test/tasks/fixtures/`.
 */
export const TASK_FILE_VERSION = 1;

/** A parsed JSON object of some version, before it is validated against the current schema. */
export type RawTaskFile = Record<string, unknown>;
/** Turns a version-`n` file into a version-`n + 1` file (including its `version` field). */
export type TaskFileMigration = (file: RawTaskFile) => RawTaskFile;

/** Version 1 is the first format, so there is nothing to upgrade yet. */
export const TASK_FILE_MIGRATIONS: Readonly<Record<number, TaskFileMigration>> = {};

const taskFileSchema = z.object({
  version: z.literal(TASK_FILE_VERSION),
  records: z.array(taskRecordSchema),
});

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
 */
export function parseTaskFile(
  text: string,
  location: string,
  migrations: Readonly<Record<number, TaskFileMigration>> = TASK_FILE_MIGRATIONS,
): TaskRecord[] {
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
  const parsed = taskFileSchema.safeParse(current);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join(".") : "file";
    throw new TaskFileError(location, `${where}: ${issue?.message ?? "invalid"}.`, { cause: parsed.error });
  }
  const seen = new Set<string>();
  for (const record of parsed.data.records) {
    if (seen.has(record.taskId)) throw new TaskFileError(location, `task ${record.taskId} appears twice.`);
    seen.add(record.taskId);
  }
  return parsed.data.records;
}

/** One record per line: compact enough to parse fast, still readable and greppable by a person. */
export function serializeTaskFile(records: readonly TaskRecord[]): string {
  const lines = records.map((record) => JSON.stringify(record)).join(",\n");
  return `{"version":${TASK_FILE_VERSION},"records":[${lines && `\n${lines}\n`}]}\n`;
}
