import { hasControlCharacter } from "../text/control-characters.ts";
import { FleetWorkspaceError } from "./fleet-workspace-error.ts";

/** What a fleet's remote may be, for the messages. */
export const REMOTE_FORMS = "https://…, ssh://…, user@host:path, file:///… or an absolute path";

const HOST = "[A-Za-z0-9_][A-Za-z0-9._-]*";
const FORMS: readonly RegExp[] = [
  // https://host[:port]/path and ssh://[user@]host[:port]/path; a host never starts with "-".
  new RegExp(`^https://(?:[^@/\\s]+@)?${HOST}(?::\\d+)?(?:/\\S*)?$`),
  new RegExp(`^ssh://(?:[A-Za-z0-9_][^@/\\s]*@)?${HOST}(?::\\d+)?/\\S*$`),
  // scp-like user@host:path: no "://" and no "::" (a remote helper, `ext::`).
  new RegExp(`^(?:[A-Za-z0-9_][A-Za-z0-9._-]*@)?${HOST}:(?!:|//)[^\\s]*$`),
  /^file:\/\/\/\S*$/,
  /^\/\S*$/,
];

/**
 * Why a git remote taken from a fleet job (or about to be put in one) is refused, or undefined. Only
 * `https`, `ssh`, `file` and absolute paths: never an option (`--upload-pack=…` starts with `-`), a
 * remote helper (`ext::…`), `git://` or `http://`, a relative path, white space or a control character.
 */
export function remoteProblem(remote: string): string | undefined {
  if (remote.length === 0 || remote.length > 2048) return "it is empty or longer than 2048 characters";
  if (remote.startsWith("-")) return "it starts with '-' (git would read it as an option)";
  if (hasControlCharacter(remote)) return "it holds a control character";
  if (/^[A-Za-z0-9+.-]+::/.test(remote)) return "it names a remote helper (<transport>::<address>)";
  if (FORMS.some((form) => form.test(remote))) return undefined;
  return `it is not one of ${REMOTE_FORMS}`;
}

/** `remote`, or a `FleetWorkspaceError` saying why git will not be pointed at it. */
export function checkedRemote(remote: string): string {
  const problem = remoteProblem(remote);
  if (problem === undefined) return remote;
  throw new FleetWorkspaceError(`The git remote ${JSON.stringify(remote)} is refused: ${problem}.`);
}
