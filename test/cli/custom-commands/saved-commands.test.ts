import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { completeCommand } from "../../../src/cli/commands/chat/complete-command.ts";
import { loadCommandFiles } from "../../../src/cli/custom-commands/command-files.ts";
import { findCommand } from "../../../src/cli/custom-commands/saved-command.ts";
import { parseSlash } from "../../../src/cli/custom-commands/slash-prompt.ts";
import { fillArguments, shellPlaceholders, splitWords } from "../../../src/cli/custom-commands/substitute.ts";
import { tempDir } from "../../support/temp-dir.ts";

describe("a command's placeholders", () => {
  it("fill $ARGUMENTS with everything, $1…$9 with the words (quotes group)", () => {
    expect(fillArguments("Fix issue #$1 with priority $2: $ARGUMENTS", '123 high "and tests"')).toBe(
      'Fix issue #123 with priority high: 123 high "and tests"',
    );
    expect(fillArguments("From $1 to $3", "a b")).toBe("From a to ");
    expect(splitWords(`one "two words" 'three'`)).toEqual(["one", "two words", "three"]);
  });

  it("append the arguments to a body that has no placeholder, so nothing typed is lost", () => {
    expect(fillArguments("Review the code.", "auth module")).toBe(
      "Review the code.\n\nARGUMENTS: auth module",
    );
    expect(fillArguments("Review the code.", "")).toBe("Review the code.");
  });

  it("find !`cmd` in order", () => {
    expect(shellPlaceholders("A !`git status` B !`git diff HEAD` C `not this`")).toEqual([
      { match: "!`git status`", command: "git status" },
      { match: "!`git diff HEAD`", command: "git diff HEAD" },
    ]);
  });
});

describe("command files", () => {
  it("are named by their path, the project's over the user's, described by their body's first line when not otherwise", async () => {
    const project = await tempDir("agentry-commands-");
    const home = await tempDir("agentry-commands-home-");
    const write = async (path: string, text: string) => {
      await mkdir(join(path, ".."), { recursive: true });
      await writeFile(path, text);
    };
    await write(
      join(project, ".claude", "commands", "frontend", "component.md"),
      "# Make a component\nDo it.\n",
    );
    await write(
      join(project, ".opencode", "command", "test.md"),
      "---\ndescription: Run tests\nagent: build\nmodel: anthropic/claude-haiku-4-5\n---\nRun $ARGUMENTS\n",
    );
    await write(join(home, ".claude", "commands", "test.md"), "---\ndescription: My tests\n---\nmine\n");
    await write(
      join(home, ".claude", "commands", "mine.md"),
      "---\nallowed-tools: Bash(git add:*), Read\n---\nAdd.\n",
    );
    const { commands, problems } = await loadCommandFiles(project, home);
    expect(problems).toEqual([]);
    expect(
      commands.map((command) => [
        command.name,
        command.description,
        command.source.kind,
        command.source.label,
      ]),
    ).toEqual([
      ["frontend:component", "Make a component", "project", ".claude/commands/frontend/component.md"],
      ["test", "Run tests", "project", ".opencode/command/test.md"],
      ["mine", "Add.", "user", "~/.claude/commands/mine.md"],
    ]);
    expect(commands[1]).toMatchObject({ agent: "build", model: "anthropic/claude-haiku-4-5" });
    expect(commands[2]?.allowedTools).toEqual(["Bash(git add:*)", "Read"]);
    expect(await commands[1]?.text("unit")).toBe("Run unit");
    // `/component` finds the namespaced command while it is the only one of that name.
    expect(findCommand(commands, "component")?.name).toBe("frontend:component");
  });
});

describe("typing a command", () => {
  it("parses /name args, names with : and ., never a path", () => {
    expect(parseSlash("/frontend:component Button  big")).toEqual({
      name: "frontend:component",
      args: "Button  big",
    });
    expect(parseSlash("/usr/bin/env")).toBeUndefined();
    expect(parseSlash("review")).toBeUndefined();
  });

  it("Tab completes a unique name to the whole command, else lists the candidates", () => {
    const complete = completeCommand(["help", "review", "release-notes", "new"]);
    expect(complete("/rev")).toEqual(["/review "]);
    expect(complete("/re")).toEqual(["/review", "/release-notes"]);
    expect(complete("hello /re")).toEqual([]);
  });
});
