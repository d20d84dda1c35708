import { AgentryError } from "../errors/agentry-error.ts";

/** The codes of a write refused for want of room: the file system is full, or the user's quota spent. */
const NO_ROOM = new Set(["ENOSPC", "EDQUOT"]);

/**
 * A write of agentry's state refused because the disk is full. It names the file, and says what
 * happened to it: the writers leave no partial line or half-written file behind.
 */
export class DiskFullError extends AgentryError {
  override readonly name = "DiskFullError";
  readonly kind = "system";
  readonly path: string;

  constructor(path: string, code: string, cause: unknown) {
    super(
      `the disk is full (${code}): agentry could not write ${path}, and left it as it was before this write. Free some space, then try again.`,
      { cause },
    );
    this.path = path;
  }
}

/** `error` as a `DiskFullError` about `path` when it is one (ENOSPC, EDQUOT); undefined otherwise. */
export function diskFullError(error: unknown, path: string): DiskFullError | undefined {
  if (error instanceof DiskFullError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && NO_ROOM.has(code) ? new DiskFullError(path, code, error) : undefined;
}
