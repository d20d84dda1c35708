import { fleetKeyFromEnv } from "../../../queue/fleet-key.ts";
import { shareLimits } from "../../../queue/fleet-limits.ts";
import { FleetWorker } from "../../../queue/worker/index.ts";
import { parseTraceParent } from "../../../telemetry/trace-context.ts";
import { UsageError } from "../../errors.ts";
import { EXIT_CODES } from "../../exit-codes.ts";
import { storeUrl } from "../../fleet-flags.ts";
import type { CliIo } from "../../io.ts";
import { loadRunSettings } from "../../wire/prepare-run.ts";
import { refuseQueueName } from "../../wire/wire-fleet.ts";
import { wireTracingSession } from "../../wire/wire-tracing.ts";
import { wireWorkerRuntime } from "../../wire/wire-worker.ts";

export interface WorkerOptions {
  redis?: string;
  queue?: string;
  concurrency: number;
  attempts: number;
  lockTimeout: number;
  stalledCheck: number;
  allowBypass?: boolean;
  cwd?: string;
}

/** `agentry worker`: runs queued children until SIGTERM or SIGINT. Returns the exit code. */
export async function workerCommand(options: WorkerOptions, io: CliIo): Promise<number> {
  const { settings, limiters } = await loadRunSettings(
    { ...(options.cwd === undefined ? {} : { cwd: options.cwd }) },
    io,
  );
  const url = storeUrl(options.redis, io.env, settings.fleet.redis);
  const queue = options.queue ?? settings.fleet.queue;
  if (queue !== undefined) refuseQueueName(queue, options.queue === undefined ? "fleet.queue" : "--queue");
  if (url === undefined)
    throw new UsageError(
      "agentry worker needs the fleet's Redis: give --redis redis://host:port/db, set AGENTRY_REDIS_URL or fleet.redis in your user config.",
    );
  const key = fleetKeyFromEnv(io.env);
  // The fleet's machines share each model endpoint's limit: ten workers on one key learn it once.
  const unshare = await shareLimits(url, limiters);
  // Each job's child traced under its parent's trace (OTEL_* or `telemetry` of this machine's config).
  const tracing = await wireTracingSession(io.env, settings.telemetry);
  const runtime = {
    ...(await wireWorkerRuntime(settings, io, limiters, { allowBypass: options.allowBypass === true })),
    ...(tracing === undefined
      ? {}
      : { trace: (parent: string | undefined) => tracing.tracer(parseTraceParent(parent)) }),
  };
  const log = (line: string) => io.stderr.write(`${new Date().toISOString()} ${line}\n`);
  const worker = await FleetWorker.start(
    {
      url,
      ...(queue === undefined ? {} : { queue }),
      concurrency: options.concurrency,
      attempts: options.attempts,
      lockMs: Math.round(options.lockTimeout * 1000),
      stalledIntervalMs: Math.round(options.stalledCheck * 1000),
      log,
      ...(key === undefined ? {} : { key }),
    },
    runtime,
  );
  log(
    `worker ${worker.name} takes jobs from queue "${queue ?? "agentry"}" (concurrency ${options.concurrency}; ${key === undefined ? "unsigned jobs accepted: set AGENTRY_FLEET_KEY so that only parents with the key give it work" : "only jobs signed with the fleet key"})`,
  );
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        log(`${signal} again: letting go of the running jobs`);
        void worker.close(true).then(resolve);
        return;
      }
      stopping = true;
      log(`${signal}: finishing the running jobs (again to let go of them)`);
      void worker.close().then(resolve);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  await unshare();
  const sent = await tracing?.close();
  if (sent !== undefined && sent !== "sent") log("warning: the last traces could not be sent");
  log(`worker ${worker.name} stopped`);
  return EXIT_CODES.completed;
}
