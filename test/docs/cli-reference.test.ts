import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { createProgram } from "../../src/cli/program.ts";

/**
 * docs/cli.md says it lists every command and option: each command of `agentry --help` has a section
 * whose heading names it (`## \`agentry run\``), and that section names each of its subcommands and
 * the long form of each option the command and its subcommands take, as `--help` prints them.
 */

const CLI_DOC = readFileSync(new URL("../../docs/cli.md", import.meta.url), "utf8");

/** The text under each `##` heading, keyed by the heading line. */
function sections(markdown: string): Map<string, string> {
  const found = new Map<string, string>();
  const parts = markdown.split(/^(?=## )/m);
  for (const part of parts) {
    const [heading = "", ...body] = part.split("\n");
    if (heading.startsWith("## ")) found.set(heading, body.join("\n"));
  }
  return found;
}

const io = {
  stdin: new PassThrough(),
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  env: {},
  cwd: "/",
};
const program = createProgram("0.0.0", io, { exitCode: 0 });
const all = (command: Command): Command[] => [command, ...command.commands.flatMap(all)];
/** What `--help` prints of a command's options: each one's long flag (`--max-turns`), help aside. */
const longFlags = (command: Command): string[] =>
  command.options.flatMap((option) =>
    option.long === undefined || option.long === "--help" || option.hidden ? [] : [option.long],
  );

/** `word` as a whole word of `text` (`--model` in "`-m, --model <id>`", not in `--model-x`). */
const named = (text: string, word: string) =>
  new RegExp(`(^|[^\\w-])${word.replace(/[-]/g, "\\-")}(?![\\w-])`).test(text);

const topLevel = program.commands.filter((command) => command.name() !== "help");

describe("docs/cli.md", () => {
  const bySection = sections(CLI_DOC);

  it.each(topLevel.map((command) => [command.name(), command] as const))(
    "documents agentry %s: its section, subcommands and options",
    (name, command) => {
      const heading = [...bySection.keys()].find((line) => line.includes(`\`agentry ${name}\``));
      expect(heading, `a "## " heading naming \`agentry ${name}\``).toBeDefined();
      const text = bySection.get(heading ?? "") ?? "";
      const missing = new Set<string>();
      for (const sub of all(command)) {
        if (sub !== command && !named(text, sub.name())) missing.add(`subcommand ${sub.name()}`);
        for (const flag of longFlags(sub)) if (!named(text, flag)) missing.add(flag);
      }
      expect([...missing], `missing from the section ${heading}`).toEqual([]);
    },
  );
});
