import { readFileSync } from "node:fs";
import { z } from "zod";
import { bashPermissionPatterns, isReadOnlyBashCommand } from "../../permissions/bash-command.ts";
import { DEFAULT_COMMAND_ENV } from "../../sandbox/command-env.ts";
import type { SandboxProfile } from "../../sandbox/policy.ts";
import { errorMessage } from "../../text/error-message.ts";
import type { ExecOptions } from "../operations.ts";
import { defineTool, type ToolContext, ToolError } from "../tool.ts";
import { checkGitReads } from "./bash-git-reads.ts";
import { checkOperandsUnconfined } from "./bash-operands.ts";
import { sandboxNotes } from "./bash-sandbox-notes.ts";

export const BASH_DEFAULT_TIMEOUT_S = 120;
export const BASH_MAX_TIMEOUT_S = 600;

function bashSchema(sandboxed: boolean) {
  const base = z.object({
    command: z.string().min(1).describe("Shell command."),
    timeout: z.number().positive().max(BASH_MAX_TIMEOUT_S).optional().describe("Seconds."),
    description: z.string().optional().describe("5-10 words for the user."),
  });
  if (!sandboxed) return base;
  return base.extend({
    outside_sandbox: z.boolean().optional().describe("Only after a sandbox refusal."),
  });
}

const DESCRIPTION = readFileSync(new URL("./bash.md", import.meta.url), "utf8");
const CONFINEMENT = {
  sandbox: readFileSync(new URL("./bash-sandbox.md", import.meta.url), "utf8").trim(),
  analysis: readFileSync(new URL("./bash-no-sandbox.md", import.meta.url), "utf8").trim(),
};

export interface BashToolOptions {
  /** Seconds a command may run when the model passes no `timeout` (default 120, at most 600). */
  defaultTimeoutSeconds?: number;
  /**
   * Whether commands run in an OS sandbox (the run's agents have a `SandboxPolicy`): the description
   * says so and the model may ask to leave it (`outside_sandbox`, which asks the user).
   */
  sandboxed?: boolean;
}

type BashArgs = { command: string; timeout?: number; description?: string; outside_sandbox?: boolean };

/** The `bash` tool; its description and schema state the default timeout it really applies. */
export function createBashTool(options: BashToolOptions = {}) {
  const defaultTimeoutS = Math.min(
    options.defaultTimeoutSeconds ?? BASH_DEFAULT_TIMEOUT_S,
    BASH_MAX_TIMEOUT_S,
  );
  const sandboxed = options.sandboxed === true;
  const description = DESCRIPTION.replace("{{defaultTimeout}}", String(defaultTimeoutS)).replace(
    "{{confinement}}",
    sandboxed ? CONFINEMENT.sandbox : CONFINEMENT.analysis,
  );
  return defineTool({
    name: "bash",
    description,
    schema: bashSchema(sandboxed),
    async execute(args: BashArgs, ctx) {
      const timeoutS = Math.min(args.timeout ?? defaultTimeoutS, BASH_MAX_TIMEOUT_S);
      const confinement = await decide(args, ctx);
      if (ctx.signal.aborted) throw new ToolError("The command was not run: the run was aborted.");
      let result: Awaited<ReturnType<typeof ctx.ops.exec>>;
      try {
        result = await ctx.ops.exec(args.command, {
          cwd: ctx.workspace,
          signal: ctx.signal,
          timeoutMs: timeoutS * 1000,
          // Pagers would wait for a keypress on a stdin that is closed.
          env: { ...ctx.commands?.values, PAGER: "cat", GIT_PAGER: "cat" },
          inheritEnv: ctx.commands?.env ?? DEFAULT_COMMAND_ENV,
          onOutput: (chunk) => ctx.progress(chunk),
          ...confinement,
        });
      } catch (error) {
        throw new ToolError(`Could not start the command: ${errorMessage(error)}`);
      }
      const output = result.output.replace(/\s+$/, "");
      const notes = sandboxNotes(result, confinement.sandbox?.profile, sandboxed);
      const details = { exitCode: result.exitCode, timedOut: result.timedOut, aborted: result.aborted };
      if (result.timedOut) {
        throw new ToolError(
          `${withOutput(output)}Command timed out after ${timeoutS} s and was killed with everything it started. ` +
            `If it needs longer, pass a larger timeout (max ${BASH_MAX_TIMEOUT_S}).`,
        );
      }
      if (result.aborted) throw new ToolError(`${withOutput(output)}Command aborted.`);
      const body = output === "" ? "(no output)" : output;
      const status = result.exitCode === 0 ? "" : `\n\n${exitStatus(result.exitCode)}`;
      return { content: `${body}${status}${notes}`, details };
    },
  });
}

export const bashTool = createBashTool();

/**
 * Asks what the command needs and says where it runs. In the OS sandbox a command the analysis finds
 * read-only gets a read-only view, others the agent's widest profile; the gate lets a sandboxed
 * command through without a prompt where the sandbox is no wider than the rules. Leaving the sandbox
 * asks `unsandboxed` as well. Without a sandbox the analysis stands alone: paths outside the workspace
 * ask `external_directory`, files inside ask `read` (a symlink out, a `.env` the rules keep back).
 * Either way a git command that may print repository files asks `read` for them (`bash-git-reads.ts`).
 */
async function decide(args: BashArgs, ctx: ToolContext): Promise<Pick<ExecOptions, "sandbox">> {
  const patterns = bashPermissionPatterns(args.command);
  const title = args.description ?? args.command;
  const policy = ctx.commands?.sandbox;
  if (policy !== undefined && args.outside_sandbox !== true) {
    const profile: SandboxProfile =
      policy.ceiling === "read-only" || isReadOnlyBashCommand(args.command) ? "read-only" : "workspace-write";
    await ctx.ask({ permission: "bash", patterns, title, sandbox: profile });
    // The sandbox hides the files the read rules keep back, but git prints them from its objects.
    await checkGitReads(args.command, ctx);
    return { sandbox: { policy, profile } };
  }
  if (policy !== undefined) {
    await ctx.ask({
      permission: "unsandboxed",
      patterns: [args.command],
      title: `run outside the sandbox: ${title}`,
    });
  }
  await ctx.ask({ permission: "bash", patterns, title });
  await checkOperandsUnconfined(args.command, ctx);
  await checkGitReads(args.command, ctx);
  return {};
}

function exitStatus(code: number | null): string {
  return code === null ? "killed by a signal" : `exit code ${code}`;
}

function withOutput(output: string): string {
  return output === "" ? "" : `${output}\n\n`;
}
