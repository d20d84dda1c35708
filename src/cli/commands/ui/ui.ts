import { errorMessage } from "../../../text/error-message.ts";
import { serveUi } from "../../../ui/ui-server.ts";
import { UsageError } from "../../errors.ts";
import { stopSignal } from "../../interrupts.ts";
import type { CliIo } from "../../io.ts";
import { listenerToken, UI_TOKEN_ENV } from "../../serve-token.ts";
import { withStore } from "../tasks/tasks-store.ts";

export interface UiOptions {
  host: string;
  port: number;
  cwd?: string;
  store?: string;
}

/**
 * `agentry ui`: the web view of the store's tasks until SIGINT or SIGTERM, then exit 0. The token is
 * settled before anything opens, so a refused address fails at once. Prints the address to open
 * (with the token) on stdout, one line, and what it serves on stderr.
 */
export async function uiCommand(options: UiOptions, io: CliIo): Promise<number> {
  const { token, generated } = listenerToken(options.host, io.env, "ui");
  const log = (line: string) => io.stderr.write(`agentry ui: ${line}\n`);
  return withStore(io, options, async (opened) => {
    await opened.sweep();
    const server = await serveUi({
      store: opened.store,
      workspace: opened.workspace,
      host: options.host,
      port: options.port,
      token,
      sweep: () => opened.sweep(),
      log,
    }).catch((error: unknown) => {
      throw new UsageError(`cannot listen on ${options.host}:${options.port}: ${errorMessage(error)}`);
    });
    log(`showing the tasks of ${opened.where} at ${server.url}`);
    if (generated) log(`the token was generated for this start (set ${UI_TOKEN_ENV} to choose one)`);
    io.stdout.write(`${server.openUrl}\n`);
    const signal = await stopSignal();
    log(`stopping (${signal})`);
    await server.close();
    return 0;
  });
}
