import { listSessions, type SessionSummary } from "../agent/session/transcript.ts";
import { UsageError } from "./errors.ts";

/** How `run` and `chat` are told which stored session to continue. */
export interface SessionChoiceFlags {
  /** `--resume <id>`; `true` is `chat --resume` without an id: pick one. */
  resume?: string | true;
  /** `-c, --continue`: the latest of the user's sessions in the workspace. */
  continue?: boolean;
}

/**
 * The session id to continue, or undefined for a new session. `pick` is asked when `--resume` came
 * without an id (on a terminal, the chat's picker); it resolves to undefined when the person chose
 * none. `--continue` with no session in the workspace is a usage error for `run`; `chat` passes
 * `onNoSession` to start a new one instead.
 */
export async function chooseSession(
  workspace: string,
  flags: SessionChoiceFlags,
  options: {
    pick?: (sessions: readonly SessionSummary[]) => Promise<string | undefined>;
    onNoSession?: () => void;
  } = {},
): Promise<string | undefined> {
  if (typeof flags.resume === "string") return flags.resume;
  if (flags.resume === undefined && flags.continue !== true) return undefined;
  const sessions = (await listSessions(workspace)).filter(isUsersSession);
  if (flags.continue === true) {
    const latest = sessions[0];
    if (latest !== undefined) return latest.id;
    if (options.onNoSession === undefined)
      throw new UsageError(`--continue: there is no session to continue in ${workspace} yet.`);
    options.onNoSession();
    return undefined;
  }
  if (options.pick === undefined) {
    throw new UsageError(
      "--resume needs a session id here (the picker needs a terminal): --resume <id> (see: agentry sessions list), or --continue for the latest session.",
    );
  }
  if (sessions.length === 0) throw new UsageError(`--resume: there is no session to resume in ${workspace}.`);
  return options.pick(sessions);
}

/** A session the user started (run, chat, a workflow), not one a parent agent started for a child. */
export function isUsersSession(session: SessionSummary): boolean {
  return session.parentSessionId === undefined;
}
