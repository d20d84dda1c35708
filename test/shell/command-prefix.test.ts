import { describe, expect, it } from "vitest";
import { bashPermissionPatterns } from "../../src/permissions/bash-command.ts";
import { commandPrefix } from "../../src/shell/command-prefix.ts";

describe("commandPrefix: what 'always' approves for a command", () => {
  it("takes the command's name and its subcommands", () => {
    expect(commandPrefix("npm test -- --x")).toBe("npm test");
    expect(commandPrefix("npm run build -- --watch")).toBe("npm run build");
    expect(commandPrefix("git commit -m x")).toBe("git commit");
    expect(commandPrefix("docker compose up -d")).toBe("docker compose up");
    expect(commandPrefix("ls -la src")).toBe("ls");
    expect(commandPrefix("./scripts/check.sh --fast")).toBe("./scripts/check.sh");
    // The rule against options stands for the words after the name: a program may begin with a dash.
    expect(commandPrefix("-tool --fast")).toBe("-tool");
  });

  it("gives none where a prefix would approve more than the person saw", () => {
    for (const command of [
      "npm", // no subcommand to approve
      "git -C ../other push", // an option where the subcommand should be
      "python3 build.py", // an interpreter: `python3 *` runs anything
      "uv run python -c 'x'", // an interpreter behind a runner
      "sudo make install",
      "rm -rf dist", // each deletion is its own question
      "> notes.txt", // a redirection pattern
      "!sed e", // a note of something that cannot be inspected
      "X=1", // an assignment
      "npm run *", // a wildcard would widen the rule
      "",
    ]) {
      expect(commandPrefix(command), command).toBeUndefined();
    }
  });

  // Named by path or not, the program decides: `/bin/rm` deletes as `rm` does, `/usr/bin/python3` runs
  // any code as `python3` does. A folder's name does not count (`/opt/rm/tool` is `tool`).
  const DESTROYS =
    "rm rmdir unlink shred dd mkfs truncate kill pkill killall chmod chown chgrp reboot shutdown";
  it.each(DESTROYS.split(" "))("approves %s one command line at a time, by path too", (name) => {
    expect(commandPrefix(`${name} target`)).toBeUndefined();
    expect(commandPrefix(`/usr/bin/${name} target`)).toBeUndefined();
  });

  const INTERPRETERS =
    "sh bash zsh dash ksh fish pwsh python python2 python3 node deno tsx ts-node ruby perl php lua Rscript osascript";
  const WRAPPERS =
    "eval exec source . sudo doas su env xargs nohup timeout nice time watch ssh command builtin";
  it.each([...INTERPRETERS.split(" "), ...WRAPPERS.split(" ")])(
    "gives none for %s, which runs any code, by path or behind a runner",
    (name) => {
      expect(commandPrefix(`${name} x`)).toBeUndefined();
      expect(commandPrefix(`/usr/local/bin/${name} x`)).toBeUndefined();
      expect(commandPrefix(`uv run /usr/local/bin/${name} x`)).toBeUndefined();
    },
  );

  it("reads the program's name after its last slash, not a folder's", () => {
    expect(commandPrefix("/opt/rm/tool --x")).toBe("/opt/rm/tool");
    expect(commandPrefix("/opt/python/tool --x")).toBe("/opt/python/tool");
    expect(commandPrefix("uv run /opt/python/tool --x")).toBe("uv run /opt/python/tool");
  });

  it("works on the patterns the gate asks for: what a line also writes or runs stays its own question", () => {
    const line = bashPermissionPatterns("npm test && git push origin main > log.txt");
    expect(line.map(commandPrefix)).toEqual(["npm test", "git push", undefined]);
    const substituted = bashPermissionPatterns("npm test $(rm -rf x)");
    expect(substituted.map(commandPrefix)).toEqual(["npm test", undefined]);
  });
});
