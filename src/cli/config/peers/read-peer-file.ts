import { readFile } from "node:fs/promises";
import { errorMessage } from "../../../text/error-message.ts";
import { UsageError } from "../../errors.ts";

/**
 * A peer's file as text; undefined when there is none. A file that is there but cannot be read is a
 * `UsageError` naming it (`label`) and whose it is (`what`): its deny rules cannot be skipped.
 */
export async function readPeerFile(path: string, label: string, what: string): Promise<string | undefined> {
  try {
    const text = await readFile(path, "utf8");
    return text.startsWith("\uFEFF") ? text.slice(1) : text;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new UsageError(`${label}: cannot read ${what}: ${errorMessage(error)}`, { cause: error });
  }
}
