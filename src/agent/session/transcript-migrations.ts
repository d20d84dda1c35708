import { AgentryError } from "../../errors/agentry-error.ts";
/**
 * Upgrades of the transcript format. `TRANSCRIPT_MIGRATIONS[n]` turns the lines of a version-`n` file
 * (header first, each a parsed JSON object) into version `n + 1` lines, header included. Readers apply
 * the steps in order, so every older file is read by the newest code. Each step is pinned by a fixture
 * in `test/agent/fixtures/transcript-v<n>.jsonl`.
 */
export type RawLine = Record<string, unknown>;
export type TranscriptMigration = (lines: RawLine[]) => RawLine[];

export const TRANSCRIPT_MIGRATIONS: Readonly<Record<number, TranscriptMigration>> = {
  /**
   * v2 may hold an image by reference (`blob`: the sha256 of its file under `.agentry/blobs/`) instead
   * of inline, and tool results may carry `images`. Every v1 line is a valid v2 line; only the header
   * changes. The bump makes an older agentry refuse a v2 file ("upgrade agentry") instead of dropping
   * the messages whose images it cannot read.
   */
  1: (lines) => lines.map((line, index) => (index === 0 ? { ...line, version: 2 } : line)),
};

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
