import { AgentryError } from "../errors/agentry-error.ts";
/**
 * Upgrades of the transcript format. `TRANSCRIPT_MIGRATIONS[n]` turns the lines of a version-`n` file
 * (header first, each a parsed JSON object) into version `n + 1` lines, header included. Readers apply
 * the steps in order, so every older file is read by the newest code. Each step is pinned by a fixture
 * in `test/agent/fixtures/transcript-v<n>.jsonl`.
 */
export type RawLine = Record<string, unknown>;
export type TranscriptMigration = (lines: RawLine[]) => RawLine[];

/** Version 1 is the first format, so there is nothing to upgrade yet. */
export const TRANSCRIPT_MIGRATIONS: Readonly<Record<number, TranscriptMigration>> = {};

export class TranscriptFormatError extends AgentryError {
  override readonly name = "TranscriptFormatError";
  readonly kind = "user";
}

/** Applies the migration steps from `fromVersion` up to `toVersion`. */
export function migrateTranscript(
  lines: RawLine[],
  fromVersion: number,
  toVersion: number,
  migrations: Readonly<Record<number, TranscriptMigration>> = TRANSCRIPT_MIGRATIONS,
): RawLine[] {
  let current = lines;
  for (let version = fromVersion; version < toVersion; version++) {
    const step = migrations[version];
    if (!step) {
      throw new TranscriptFormatError(
        `No migration from transcript format v${version} to v${version + 1}; this file cannot be read.`,
      );
    }
    current = step(current);
    const header = current[0];
    if (header?.type !== "header" || header.version !== version + 1) {
      throw new TranscriptFormatError(
        `The migration from transcript format v${version} did not produce a v${version + 1} header.`,
      );
    }
  }
  return current;
}
