import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type WireMessage, wireMessages, wireTexts } from "../../subagents/support/subagent-harness.ts";
import { describeWith, SCRIPT } from "../../support/components.ts";
import { type ModelServer, type RecordedRequest, startModelServer } from "../../support/model-server.ts";
import { makeWorkspace, runCli, type TestWorkspace } from "../support/cli-process.ts";
import { providerEnv } from "../support/provider-env.ts";
import { onTerminal } from "../support/terminal.ts";

// Acceptance of issue 23 (commands): `/review` from `.claude/commands/review.md`, with $ARGUMENTS and
// !`git diff`, in `agentry run` and on a terminal in `agentry chat`.

const REVIEW = `---
description: Review the uncommitted changes
argument-hint: [focus]
---
Review these uncommitted changes, looking hardest at $ARGUMENTS.

!\`git diff\`

Compare with @NOTES.md before you answer.
`;

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A git repository with a committed file, then an uncommitted change, and the review command. */
async function repoWithChange(): Promise<TestWorkspace> {
  const ws = await makeWorkspace({
    "app.js": "export const limit = 10;\n",
    "NOTES.md": "Limits stay below 50.\n",
  });
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: ws.dir,
      env: {
        ...ws.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@t",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@t",
      },
    });
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "first");
  await ws.write("app.js", "export const limit = 100;\n");
  await ws.write(".claude/commands/review.md", REVIEW);
  return ws;
}

const firstPrompt = (request: RecordedRequest | undefined) =>
  wireTexts(wireMessages(request?.body ?? {})[0] as WireMessage).join("\n");

function expectReviewPrompt(text: string) {
  expect(text).toContain("Review these uncommitted changes, looking hardest at security.");
  expect(text).toContain("-export const limit = 10;");
  expect(text).toContain("+export const limit = 100;");
  expect(text).not.toContain("!`git diff`");
  // Its @mention is inlined as a typed prompt's is.
  expect(text).toContain("Limits stay below 50.");
}

describe("saved commands in agentry run", () => {
  it("/review security runs .claude/commands/review.md with $ARGUMENTS and the output of !`git diff`", async () => {
    const ws = await repoWithChange();
    server = await startModelServer([{ text: "The limit grew tenfold." }]);
    const result = await runCli(["run", "/review security"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("The limit grew tenfold.");
    expectReviewPrompt(firstPrompt(server.requests[0]));
  });

  it("a !`cmd` the rules do not allow stops the command: nothing is sent", async () => {
    const ws = await makeWorkspace({ ".claude/commands/clean.md": "Cleaned: !`touch cleaned.txt`\n" });
    server = await startModelServer([{ text: "never" }]);
    const result = await runCli(["run", "/clean"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("!`touch cleaned.txt` was not run, so the command is not sent");
    expect(server.requests).toHaveLength(0);
  });

  it("your own command's allowed-tools let its !`cmd` run where the rules would ask", async () => {
    const ws = await makeWorkspace();
    await mkdir(join(ws.home, ".claude", "commands"), { recursive: true });
    await writeFile(
      join(ws.home, ".claude", "commands", "mark.md"),
      "---\nallowed-tools: Bash(touch:*)\n---\nMarked: !`touch marked.txt && echo done`\n",
    );
    server = await startModelServer([{ text: "ok" }]);
    const result = await runCli(["run", "/mark"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(ws.dir, "marked.txt"))).toBe(true);
    expect(firstPrompt(server.requests[0])).toContain("Marked: done");
  });

  it("a prompt that starts with / but names no command is sent as it is", async () => {
    const ws = await makeWorkspace();
    server = await startModelServer([{ text: "ok" }]);
    const result = await runCli(["run", "/usr/bin is on PATH?"], {
      cwd: ws.dir,
      env: { ...ws.env, ...providerEnv(server, "anthropic") },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(firstPrompt(server.requests[0])).toBe("/usr/bin is on PATH?");
  });
});

describeWith(SCRIPT, "saved commands in agentry chat on a terminal", () => {
  it("/help lists /review, Tab completes it, and it runs with $ARGUMENTS and !`git diff`", async () => {
    const ws = await repoWithChange();
    server = await startModelServer([{ text: "Reviewed: the limit grew tenfold." }]);
    const term = onTerminal(
      ["chat"],
      { ...ws.env, ...providerEnv(server, "anthropic"), TERM: "xterm" },
      ws.dir,
    );
    await term.waitFor("› ");
    term.type("/help\r");
    await term.waitFor("Review the uncommitted changes");
    expect(term.screen()).toMatch(
      /\/review \[focus\]\s+Review the uncommitted changes \(project: \.claude\/commands\/review\.md\)/,
    );
    await term.waitFor("› ", 2);
    term.type("/rev\t");
    await term.waitFor("/review ");
    term.type("security\r");
    await term.waitFor("Reviewed: the limit grew tenfold.");
    await term.waitFor("› ", 3);
    term.type("\u0004");
    expect(await term.exited, term.screen()).toBe(0);
    expect(server.requests).toHaveLength(1);
    expectReviewPrompt(firstPrompt(server.requests[0]));
  });
});
