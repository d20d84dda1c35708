import type { TranscriptFormatError } from "../agent/session/transcript.ts";
import { UsageError } from "./errors.ts";

/** A transcript `--resume` or `sessions show` cannot read: exit 2, the file left as it is. */
export function damagedSessionError(id: string, error: TranscriptFormatError): UsageError {
  return new UsageError(
    `Session "${id}" cannot be read: ${error.message} The file is left as it is; start a new session, or move the file aside.`,
    { cause: error },
  );
}
