import { dirname } from "node:path";
import { importSpecs, importTarget } from "./import-specs.ts";
import type {
  InstructionContext,
  InstructionFile,
  InstructionOrigin,
  InstructionScope,
} from "./instruction-file.ts";
import { labelOf } from "./locations.ts";
import { refusal } from "./read-policy.ts";
import { readTextHead, realPathOf } from "./read-text.ts";

/** Imports read below a file, at most (Claude Code's limit): a 6th level is refused. */
export const MAX_IMPORT_DEPTH = 5;

/** Files one load may hold, at most, imports included: a guard against an import tree run wild. */
export const MAX_FILES = 100;

/** A file to read: its real path, the path it was named by (for its label), whose it is and whether it imports. */
export interface FileToRead {
  path: string;
  named: string;
  scope: InstructionScope;
  imports: boolean;
  origin: InstructionOrigin;
}

/**
 * Reads files into `files` in order, each real path once (a link to a file already read, or an import
 * cycle, is cut there), each followed by what it imports, depth first. What cannot be read as asked
 * — outside what its scope may read, too deep, not text — is a diagnostic; a missing file, or an
 * import naming nothing (`@alice`), is passed over in silence.
 */
export class FileCollector {
  readonly files: InstructionFile[] = [];
  readonly diagnostics: string[] = [];
  readonly context: Omit<InstructionContext, "loaded">;
  /** Bytes read of one file, at most: the whole prompt's cap (a longer file is cut anyway). */
  readonly #maxBytes: number;
  readonly #seen: Set<string>;

  constructor(context: Omit<InstructionContext, "loaded">, maxBytes: number, seen: Iterable<string> = []) {
    this.context = context;
    this.#maxBytes = maxBytes;
    this.#seen = new Set(seen);
  }

  /** Real paths read so far, and those it was given as read already. */
  get seen(): ReadonlySet<string> {
    return this.#seen;
  }

  /** Whether `path` (real) may be read by a file of `scope`: the reason it may not, as a clause. */
  refusal(path: string, scope: InstructionScope): string | undefined {
    return refusal(path, scope, this.context);
  }

  async add(file: FileToRead, depth = 0): Promise<void> {
    if (this.#seen.has(file.path)) return;
    const label = labelOf(file.named, this.context);
    if (this.files.length >= MAX_FILES) {
      this.diagnostics.push(`${label} was not read: more than ${MAX_FILES} instruction files`);
      return;
    }
    const read = await readTextHead(file.path, this.#maxBytes);
    if (read === undefined) return;
    this.#seen.add(file.path);
    if (read.binary) {
      this.diagnostics.push(`${label} was not read: it is not a text file`);
      return;
    }
    if (read.text.trim() === "") return;
    this.files.push({
      label,
      path: file.path,
      scope: file.scope,
      origin: file.origin,
      size: read.size,
      text: read.text,
      truncated: false,
    });
    if (file.imports) await this.#addImports(read.text, file, label, depth);
  }

  async #addImports(text: string, importer: FileToRead, label: string, depth: number): Promise<void> {
    const root = importer.origin.kind === "import" ? importer.origin.root : label;
    for (const spec of importSpecs(text)) {
      const named = importTarget(spec, dirname(importer.path), this.context.home);
      const real = await realPathOf(named);
      if (real === undefined || this.#seen.has(real)) continue;
      if (depth + 1 > MAX_IMPORT_DEPTH) {
        this.diagnostics.push(
          `${label}: import @${spec} was not read: imports go ${MAX_IMPORT_DEPTH} levels deep at most`,
        );
        continue;
      }
      const why = this.refusal(real, importer.scope);
      if (why !== undefined) {
        this.diagnostics.push(`${label}: import @${spec} was not read: ${real} is ${why}`);
        continue;
      }
      await this.add(
        {
          path: real,
          named,
          scope: importer.scope,
          imports: true,
          origin: { kind: "import", from: label, root, depth: depth + 1 },
        },
        depth + 1,
      );
    }
  }
}
