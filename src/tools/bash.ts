import { readFileSync } from "node:fs";
import { z } from "zod";
import { bashPermissionPatterns } from "../permissions/bash-command.ts";
import { externalPaths } from "./bash-external-paths.ts";
import { defineTool, ToolError } from "./tool.ts";

export const BASH_DEFAULT_TIMEOUT_S = 120;
export const BASH_MAX_TIMEOUT_S = 600;

function bashSchema(defaultTimeoutS: number) {
  return z.object({
    command: z.string().min(1).describe("The shell command to run (bash -c) in the workspace root."),
    timeout: z
      .number()
      .positive()
      .max(BASH_MAX_TIMEOUT_S)
      .optional()
      .describe(
        `Seconds before the command and everything it started are killed (default ${defaultTimeoutS}, max ${BASH_MAX_TIMEOUT_S}).`,
      ),
    description: z
      .string()
      .optional()
      .describe("What the command does in 5-10 words, shown to the user (e.g. 'Run the unit tests')."),
  });
}

const DESCRIPTION = readFileSync(new URL("./bash.md", import.meta.url), "utf8");

export interface BashToolOptions {
  /** Seconds a command may run when the model passes no `timeout` (default 120, at most 600). */
  defaultTimeoutSeconds?: number;
}

/** The `bash` tool; its description and schema state the default timeout it really applies. */
export function createBashTool(options: BashToolOptions = {}) {
  const defaultTimeoutS = Math.min(
    options.defaultTimeoutSeconds ?? BASH_DEFAULT_TIMEOUT_S,
    BASH_MAX_TIMEOUT_S,
  );
  return defineTool({
    name: "bash",
    description: DESCRIPTION.replace("{{defaultTimeout}}", String(defaultTimeoutS)),
    schema: bashSchema(defaultTimeoutS),
    async execute(args, ctx) {
      const timeoutS = Math.min(args.timeout ?? defaultTimeoutS, BASH_MAX_TIMEOUT_S);
      await ctx.ask({
        permission: "bash",
        patterns: bashPermissionPatterns(args.command),
        title: args.description ?? args.command,
      });
      // Reading or writing outside the workspace through bash needs its own permission, as for file tools.
      for (const path of externalPaths(args.command, ctx.workspace)) {
        await ctx.ask({
          permission: "external_directory",
          patterns: [path],
          title: `bash touches ${path}, outside the workspace`,
        });
      }
      if (ctx.signal.aborted) throw new ToolError("The command was not run: the run was aborted.");
      let result: Awaited<ReturnType<typeof ctx.ops.exec>>;
      try {
        result = await ctx.ops.exec(args.command, {
          cwd: ctx.workspace,
          signal: ctx.signal,
          timeoutMs: timeoutS * 1000,
          // Pagers would wait for a keypress on a stdin that is closed.
          env: { PAGER: "cat", GIT_PAGER: "cat" },
          onOutput: (chunk) => ctx.progress(chunk),
        });
      } catch (error) {
        throw new ToolError(
          `Could not start the command: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const output = result.output.replace(/\s+$/, "");
      const details = { exitCode: result.exitCode, timedOut: result.timedOut, aborted: result.aborted };
      if (result.timedOut) {
        throw new ToolError(
          `${withOutput(output)}Command timed out after ${timeoutS} s and was killed with everything it started. ` +
            `If it needs longer, pass a larger timeout (max ${BASH_MAX_TIMEOUT_S}); for a server or watcher, run it in the background (\`cmd > log.txt 2>&1 &\`) and read the log.`,
        );
      }
      if (result.aborted) throw new ToolError(`${withOutput(output)}Command aborted.`);
      const body = output === "" ? "(no output)" : output;
      if (result.exitCode === 0) return { content: body, details };
      const status = result.exitCode === null ? "killed by a signal" : `exit code ${result.exitCode}`;
      return { content: `${body}\n\n${status}`, details };
    },
  });
}

export const bashTool = createBashTool();

function withOutput(output: string): string {
  return output === "" ? "" : `${output}\n\n`;
}
