import { type Command, Option } from "commander";
import { DEFAULT_LOCK_MS, DEFAULT_STALLED_INTERVAL_MS } from "../../../queue/fleet-keys.ts";
import { type CommandDeps, lazyAction } from "../command-deps.ts";
import { cwdOption, positiveInteger, positiveNumber } from "../options.ts";

const WORKER_HELP = `
A worker takes the subagents that \`agentry run --queue\` puts on the fleet's Redis queue and runs
each with the same loop, tools, permissions and OS sandbox as in its parent's process.

There is no --model: each job names its child's model, chosen where the child was started (the task
call's model, its definition's, or its parent's). The worker calls that model with this machine's
keys and providers (ANTHROPIC_API_KEY, OPENAI_API_KEY, "providers" in its config), as jobs carry no
keys: a worker needs a key for every provider its jobs name. Its config and environment are read
from --cwd (default: here): providers, sandbox settings.

A worktree child needs no shared disk: it starts from a snapshot its parent pushed to the git remote
origin of its repository, and its branch agentry/<task-id> is pushed back there. A child in a shared
(or isolated) workspace needs its parent's workspace at the same path on this machine (a shared
disk); a job whose folder is not here ends with an error saying so.

Whoever can write to the fleet's Redis writes the jobs, so a worker narrows what a job asks for: a
child in bypass mode runs as accept-edits (edits and sandboxed commands allowed, nothing else, as
nobody is there to ask) and no command leaves the OS sandbox, unless --allow-bypass is given. With
AGENTRY_FLEET_KEY (or AGENTRY_FLEET_KEY_FILE) set, the same key as the parents', it runs only jobs a
parent signed with it and logs each job it refuses.

It logs one line per job on stderr. SIGTERM or Ctrl-C: it stops taking jobs and finishes the ones it
runs; a second one lets go of them at once (they start again on another worker). A worker killed
outright is noticed when its lock expires (--lock-timeout, 6 s) and a stalled check sees it
(--stalled-check, every 2 s): its children start again elsewhere within about 10 s, --attempts starts
in all. A worker that was paused, starved or cut off longer than its lock stops those children the
moment it notices (another worker may run them now), and never records their results. A longer lock
tolerates longer pauses and notices dead workers later (docs/fleet.md).

The set-up of a fleet, its faults and a docker compose file: docs/fleet.md.

Examples:
  $ agentry worker --redis redis://fleet:6379/0 --concurrency 4
  $ AGENTRY_REDIS_URL=redis://fleet:6379/0 agentry worker
`;

/** Adds `agentry worker`; the queue and the models load only when it runs. */
export function registerWorkerCommand(program: Command, deps: CommandDeps): Command {
  return program
    .command("worker")
    .summary("run queued subagents from a fleet's Redis queue")
    .description(
      "Take queued subagents from Redis (BullMQ) and run them on this machine until stopped, each with the " +
        "model its job names and this machine's keys.",
    )
    .addOption(
      new Option("--redis <url>", "the fleet's Redis, redis://host:port/db (default: AGENTRY_REDIS_URL)"),
    )
    .addOption(new Option("--queue <name>", "the queue to take jobs from (default: agentry)"))
    .addOption(
      new Option("--concurrency <n>", "how many children it runs at once")
        .argParser(positiveInteger)
        .default(1),
    )
    .addOption(
      new Option("--attempts <n>", "how many times a child is started before a lost worker fails it")
        .argParser(positiveInteger)
        .default(2),
    )
    .addOption(
      new Option(
        "--lock-timeout <seconds>",
        "how long a job's lock lasts unrenewed: how soon a worker that died is noticed, and how long a paused one keeps its jobs",
      )
        .argParser(positiveNumber)
        .default(DEFAULT_LOCK_MS / 1000),
    )
    .addOption(
      new Option("--stalled-check <seconds>", "how often jobs whose lock ran out are looked for")
        .argParser(positiveNumber)
        .default(DEFAULT_STALLED_INTERVAL_MS / 1000),
    )
    .addOption(
      new Option(
        "--allow-bypass",
        "let jobs run in bypass mode; without it a job in bypass runs as accept-edits and no command leaves the sandbox",
      ),
    )
    .addOption(cwdOption())
    .addHelpText("after", WORKER_HELP)
    .action(lazyAction(deps, async () => (await import("./worker-run.ts")).workerCommand));
}
