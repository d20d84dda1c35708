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

  it("works on the patterns the gate asks for: what a line also writes or runs stays its own question", () => {
    const line = bashPermissionPatterns("npm test && git push origin main > log.txt");
    expect(line.map(commandPrefix)).toEqual(["npm test", "git push", undefined]);
    const substituted = bashPermissionPatterns("npm test $(rm -rf x)");
    expect(substituted.map(commandPrefix)).toEqual(["npm test", undefined]);
  });
});
