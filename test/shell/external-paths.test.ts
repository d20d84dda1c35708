import { describe, expect, it } from "vitest";
import { PermissionDeniedError } from "../../src/permissions/types.ts";
import { externalPaths, workspaceOperands } from "../../src/shell/external-paths.ts";
import { bashTool } from "../../src/tools/bash/bash.ts";
import { makeContext, makeSandbox, runTool } from "../tools/tool-context.ts";

const WS = "/work/project";
const HOME = "/home/me";
const paths = (command: string) => externalPaths(command, WS, HOME);
const operands = (command: string) => workspaceOperands(command, WS, HOME);

describe("externalPaths", () => {
  it("finds file operands and redirections outside the workspace", () => {
    expect(paths("cat ../secret.txt")).toEqual(["/work/secret.txt"]);
    expect(paths("cat ~/.ssh/id_rsa")).toEqual(["/home/me/.ssh/id_rsa"]);
    expect(paths("ls /etc && head -n 3 $HOME/.bashrc")).toEqual(["/etc", "/home/me/.bashrc"]);
    expect(paths("echo hi > /tmp/out.txt")).toEqual(["/tmp/out.txt"]);
    expect(paths("wc -l < ../in.txt")).toEqual(["/work/in.txt"]);
    expect(paths("cp src/a.ts /opt/b.ts")).toEqual(["/opt/b.ts"]);
    expect(paths("sort --output=/var/x data.txt")).toEqual(["/var/x"]);
    expect(paths("grep -rn token /etc/passwd")).toEqual(["/etc/passwd"]);
    expect(paths("sh -c 'cat /etc/shadow'")).toEqual(["/etc/shadow"]);
  });

  it("leaves workspace paths, devices, fd duplication and non-path arguments alone", () => {
    expect(paths("cat src/a.ts ./b.ts /work/project/c.ts")).toEqual([]);
    expect(paths("npm test > /dev/null 2>&1")).toEqual([]);
    expect(paths('grep -rn "/api/users" src')).toEqual([]);
    expect(paths("rg /usr/ src")).toEqual([]);
    expect(paths("git log --oneline -5")).toEqual([]);
    expect(paths("curl https://example.com/a/../b")).toEqual([]);
    expect(paths("cat <<EOF\n/etc/passwd\nEOF")).toEqual([]);
    // A substitution with no folder written before it, or one inside, is taken as inside: best effort.
    expect(paths("cat $(echo a) src/$(echo b) ''")).toEqual([]);
  });
});

describe("externalPaths: the forms a path outside takes", () => {
  it.each([
    ["the home folder itself", "ls ~", ["/home/me"]],
    ["$HOME itself", "ls $HOME", ["/home/me"]],
    ["the parent folder itself", "ls ..", ["/work"]],
    ["a .. after a folder", "cat src/../../x", ["/work/x"]],
    ["a redirection with no command", "> /tmp/x", ["/tmp/x"]],
    ["stdout and stderr to a file (&>)", "make &> /tmp/build.log", ["/tmp/build.log"]],
    ["stdout and stderr to a file whose name ends in a digit (>&)", "make >& /tmp/log1", ["/tmp/log1"]],
    ["the command sudo runs", "sudo -u root cat /etc/shadow", ["/etc/shadow"]],
    ["the command timeout runs", "timeout 5 tail /var/log/syslog", ["/var/log/syslog"]],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${HOME}, not a template
    ["${HOME} braced", "cat ${HOME}/.ssh/id_rsa", ["/home/me/.ssh/id_rsa"]],
    ["a .. after ./", "rm -rf ./..", ["/work"]],
    ["a .. after .//", "ls .//..", ["/work"]],
    ["the folder before a command substitution", "cat /etc/$(echo passwd)", ["/etc"]],
    ["the home folder before a backquoted substitution", "cat ~/`whoami`.txt", ["/home/me"]],
    ["$HOME before a substitution", "cat $HOME/$(echo .ssh)/id_rsa", ["/home/me"]],
    ["another user's home", "cat ~alice/.ssh/id_rsa", ["/home/alice/.ssh/id_rsa"]],
    ["root's home", "ls ~root/.ssh", ["/root/.ssh"]],
    ["another user's home itself", "ls ~root", ["/root"]],
    ["a .. after $PWD", "cat $PWD/../x", ["/work/x"]],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${PWD}, not a template
    ["a .. after ${PWD}", "cat ${PWD}/../../etc/passwd", ["/etc/passwd"]],
  ])("%s", (_, command, expected) => {
    expect(paths(command)).toEqual(expected);
  });
});

it("a path under $PWD or our own ~name is inside, and so is a name with ~ inside it", () => {
  expect(paths("cat $PWD/src/a.ts ~me/../../work/project/b.ts")).toEqual([]);
  expect(paths("cat backup~/a.txt notes$HOME/b.txt notes~bob/c.txt")).toEqual([]);
});

describe("externalPaths: scripts inside scripts", () => {
  const nested = (levels: number, command: string) => `${"eval ".repeat(levels)}${command}`;

  it("reads scripts four levels deep; a deeper one may name any path, so it stands as /", () => {
    expect(paths(nested(4, "cat /etc/shadow"))).toEqual(["/etc/shadow"]);
    expect(paths(nested(5, "cat /etc/shadow"))).toEqual(["/"]);
    expect(operands(nested(5, "cat a.txt"))).toEqual([]);
  });
});

describe("workspaceOperands", () => {
  it("resolves the operands and redirection targets inside the workspace, and leaves the rest to externalPaths", () => {
    expect(operands("cat a.txt /etc/passwd ../x src/b.ts > out.txt")).toEqual([
      `${WS}/out.txt`,
      `${WS}/a.txt`,
      `${WS}/src/b.ts`,
    ]);
  });

  it("skips words whose value it cannot know: empty, a variable, a command substitution", () => {
    expect(operands("cat '' $FOO `x` a.txt")).toEqual([`${WS}/a.txt`]);
  });

  it("an option is not an operand, but after -- a word that starts with - is one", () => {
    expect(operands("cat -n a.txt")).toEqual([`${WS}/a.txt`]);
    expect(operands("cat -- -notes.env")).toEqual([`${WS}/-notes.env`]);
  });

  it.each([
    ["fd duplications are not files", "make > out.txt 2>&1 3>&10", [`${WS}/out.txt`]],
    ["a file named by digits is a file", "echo x > 1", [`${WS}/1`]],
    ["&> writes a file, even one whose name starts with a digit", "make &> 1.log", [`${WS}/1.log`]],
    [">& writes a file when its target is not a descriptor", "make >& log1", [`${WS}/log1`]],
  ])("redirections: %s", (_, command, expected) => {
    expect(operands(command)).toEqual(expected);
  });
});

describe("bash asks external_directory for paths outside the workspace", () => {
  it("asks once per outside path, and does not run the command when it is denied", async () => {
    const sandbox = await makeSandbox();
    const denied = makeContext(sandbox.workspace, {
      ask: async (request) => {
        if (request.permission === "external_directory")
          throw new PermissionDeniedError(`external_directory ${request.patterns[0]} is denied`);
      },
    });
    await expect(
      runTool(bashTool, { command: `cat ../outside/x; touch made.txt` }, denied.ctx),
    ).rejects.toThrow(/external_directory .*outside\/x is denied/);
    expect(denied.asks.map((a) => a.permission)).toEqual(["bash", "external_directory"]);
    expect(denied.asks[1]?.patterns).toEqual([`${sandbox.outside}/x`]);
    const { existsSync } = await import("node:fs");
    expect(existsSync(`${sandbox.workspace}/made.txt`)).toBe(false);

    const allowed = makeContext(sandbox.workspace);
    const result = await runTool(
      bashTool,
      { command: "echo inside > note.txt && cat note.txt" },
      allowed.ctx,
    );
    expect(result.content).toContain("inside");
    expect(allowed.asks.map((a) => a.permission)).toEqual(["bash"]);
  });
});
