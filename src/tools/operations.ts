import type { SandboxPolicy, SandboxProfile } from "../sandbox/policy.ts";

/**
 * File and process I/O used by the tools. The default implementation (`nodeOperations`) uses the local
 * machine; another implementation can run the same tools elsewhere (a container, a remote host).
 * Paths given to these methods are absolute and already confined by the caller.
 *
 * The methods that read, write or list (`readFile`, `readChunks`, `writeFile`, `mkdir`, `readdir`,
 * `withOpenFiles`) are given a **real path** (no symbolic link in any component: what
 * `resolveWorkspacePath` returns) and must act on exactly that path: open it without following a link,
 * check that the opened descriptor is at that path, and read or write through that descriptor; fail
 * when it is not (a folder swapped for a link after the caller's check). A check by name before an
 * open by name is not enough: the name can change in between.
 */
export interface FileStat {
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  size: number;
  mtimeMs: number;
}

export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

export interface ExecOptions {
  cwd: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** Variables set for the command, on top of the inherited ones. */
  env?: Record<string, string>;
  /** Names of agentry's environment variables the command inherits (`LC_*`: a prefix); default all. */
  inheritEnv?: readonly string[];
  /** Run inside the OS sandbox under this policy, in this profile (narrowed to the policy's ceiling). */
  sandbox?: { policy: SandboxPolicy; profile: SandboxProfile };
  /** Called with each chunk of combined stdout/stderr as it arrives. */
  onOutput?: (chunk: string) => void;
}

export interface ExecResult {
  /** null when killed by a signal */
  exitCode: number | null;
  /** Combined stdout and stderr, in arrival order. */
  output: string;
  timedOut: boolean;
  aborted: boolean;
  /** Protected paths the command created inside the sandbox, which were removed (workspace-relative). */
  removedPaths?: string[];
}

export interface Operations {
  /** A regular file's bytes (exactly `path`, see above). */
  readFile(path: string): Promise<Buffer>;
  /** The file's bytes in chunks, from the start; leaving the iteration early closes the file. */
  readChunks(path: string): AsyncIterable<Buffer>;
  /** Replaces the file's content; creates it and its parent directories as needed. */
  writeFile(path: string, data: string | Buffer): Promise<void>;
  /**
   * Opens the files as `readFile` does and, while `use` runs, lets a command run by `exec` read each
   * opened file through the path handed to `use` (on Linux `/proc/<pid>/fd/<n>`: the descriptor itself,
   * whatever its name now leads to); `undefined` for a file that could not be opened. Closes them after.
   */
  withOpenFiles<T>(
    paths: readonly string[],
    use: (opened: ReadonlyArray<string | undefined>) => Promise<T>,
  ): Promise<T>;
  /** `undefined` when the path does not exist. Does not follow a final symlink. */
  lstat(path: string): Promise<FileStat | undefined>;
  /** `undefined` when the path does not exist. Follows symlinks. */
  stat(path: string): Promise<FileStat | undefined>;
  /** Resolves symlinks; throws when the path does not exist. */
  realpath(path: string): Promise<string>;
  readdir(path: string): Promise<DirEntry[]>;
  /** Creates the directory and its missing parents. */
  mkdir(path: string): Promise<void>;
  /**
   * Runs a shell command in its own process group; on abort or timeout the whole group is killed, and
   * what it leaves in the background is killed when it exits.
   */
  exec(command: string, options: ExecOptions): Promise<ExecResult>;
}
