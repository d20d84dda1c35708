import type { Confinement } from "./bwrap-args.ts";
import { GIT_CHANGING_FILES, GIT_WRITABLE_DIRS } from "./git-dir-view.ts";

/**
 * A Seatbelt (macOS `sandbox-exec`) profile for a confinement: everything allowed but writing (only
 * the writable roots, minus protected paths, plus the private temp dir and the terminal devices),
 * reading hidden paths, and the network (only the proxy's socket, when there is one). Seatbelt has no
 * process namespace: agentry's process supervisor ends what a command leaves behind.
 *
 * Not exercised by CI (Linux only): the profile is built from the same confinement as bubblewrap's.
 */
export function seatbeltProfile(confinement: Confinement, privateTmp: string): string {
  const writable =
    confinement.profile === "workspace-write"
      ? [confinement.workspace, ...confinement.writableRoots, ...(confinement.extraBinds ?? [])]
      : [...(confinement.extraBinds ?? [])];
  const lines = [
    "(version 1)",
    "(allow default)",
    "(deny network*)",
    ...(confinement.extraBinds ?? []).map(
      (dir) => `(allow network-outbound (remote unix-socket (path-regex #"^${escapeRegex(dir)}/")))`,
    ),
    "(deny file-write*)",
    `(allow file-write* ${[privateTmp, ...writable].map(subpath).join(" ")} (literal "/dev/null") (regex #"^/dev/tty") (regex #"^/dev/fd/"))`,
  ];
  // A git folder: read-only but for what commits need (Seatbelt filters by name, so git writes in place).
  for (const dir of confinement.profile === "workspace-write" ? confinement.gitDirs : []) {
    const files = GIT_CHANGING_FILES.map(escapeRegex).join("|");
    lines.push(
      `(deny file-write* ${subpath(dir)})`,
      `(allow file-write* ${GIT_WRITABLE_DIRS.map((part) => subpath(`${dir}/${part}`)).join(" ")} (regex #"^${escapeRegex(dir)}/(${files}|sharedindex\\.[0-9a-f]+)(\\.lock)?$"))`,
    );
  }
  if (confinement.readOnlyPaths.length > 0)
    lines.push(`(deny file-write* ${confinement.readOnlyPaths.map(subpath).join(" ")})`);
  const hidden = [...confinement.hiddenFiles.map(literal), ...confinement.hiddenDirs.map(subpath)];
  if (hidden.length > 0) lines.push(`(deny file-read* ${hidden.join(" ")})`);
  return lines.join("\n");
}

export function seatbeltArgs(
  confinement: Confinement,
  privateTmp: string,
  argv: readonly string[],
): string[] {
  return ["-p", seatbeltProfile(confinement, privateTmp), ...argv];
}

const quote = (path: string) => `"${path.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
const subpath = (path: string) => `(subpath ${quote(path)})`;
const literal = (path: string) => `(literal ${quote(path)})`;
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\"]/g, "\\$&");
