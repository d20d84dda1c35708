import { describe, expect, it } from "vitest";
import { externalPaths } from "../../src/shell/external-paths.ts";

const paths = (command: string) => externalPaths(command, "/work/project", "/home/me");

describe("externalPaths: the home folder only at a path's start", () => {
  // bash expands `~` only at a word's start, and `$HOME` in the middle stays under the folder before it.
  it.each([
    "cat docs/~/notes.md",
    "cat docs/$HOME/notes.md",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's ${HOME}, not a template
    "cat docs/${HOME}/notes.md",
  ])("%s is a path inside the workspace", (command) => {
    expect(paths(command)).toEqual([]);
  });
});
