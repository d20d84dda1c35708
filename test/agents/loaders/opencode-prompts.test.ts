import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentFolders } from "../agent-folders.ts";

/**
 * The `prompt` of an OpenCode agent (`loaders/opencode-level.ts`), through discovery on real folders:
 * text, or `{file:…}` relative to the file that gives it (`~/` is the home folder), and the body of a
 * Markdown agent over both.
 */

const folders = agentFolders("agentry-opencode-prompts-");
const { write } = folders;
const load = () => folders.load({ includeBuiltins: false });

/** An opencode.json with one agent entry `helper` whose prompt is `prompt`. */
const helperWithPrompt = (prompt: unknown) =>
  write(
    join(folders.project, "opencode.json"),
    JSON.stringify({ agent: { helper: { description: "Helps", prompt } } }),
  );

describe("an opencode.json entry's prompt", () => {
  it.each([
    ["text is the prompt, without the space around it", "  Be brief.\n", "Be brief."],
    ["{file:…} names a file relative to the config", "{file:./prompts/helper.md}", "From the file."],
    [
      "{file:…} with space around it and inside it names the file",
      " {file: ./prompts/helper.md }\n",
      "From the file.",
    ],
    [
      "text around {file:…} keeps it all text",
      "Read {file:./prompts/helper.md}",
      "Read {file:./prompts/helper.md}",
    ],
    [
      "{file:…} followed by text keeps it all text",
      "{file:./prompts/helper.md} first",
      "{file:./prompts/helper.md} first",
    ],
  ])("%s", async (_, prompt, expected) => {
    await write(join(folders.project, "prompts/helper.md"), "From the file.\n");
    await helperWithPrompt(prompt);
    const { byName, diagnostics } = await load();
    expect(diagnostics).toEqual([]);
    expect(byName.get("helper")?.prompt).toBe(expected);
  });

  it("that is not a string is ignored with a warning at the entry's line", async () => {
    await helperWithPrompt(42);
    const { byName, diagnostics } = await load();
    expect(byName.get("helper")?.prompt).toBe("");
    expect(diagnostics).toEqual([
      {
        severity: "warning",
        file: join(folders.project, "opencode.json"),
        line: 1,
        message: 'agent "helper": prompt: not a string',
        action: "ignored key prompt",
      },
      expect.objectContaining({ message: 'agent "helper": empty prompt' }),
    ]);
  });

  it("{file:~/…} in the user's config is read from the home folder", async () => {
    await write(join(folders.home, "prompts/helper.md"), "From home.\n");
    await write(
      join(folders.home, ".config/opencode/opencode.json"),
      JSON.stringify({ agent: { helper: { description: "Helps", prompt: "{file:~/prompts/helper.md}" } } }),
    );
    const { byName, diagnostics } = await load();
    expect(diagnostics).toEqual([]);
    expect(byName.get("helper")?.prompt).toBe("From home.");
  });
});

describe("a Markdown agent's prompt", () => {
  it("is its body; a prompt key beside the body is ignored, with an info at its line", async () => {
    await write(
      join(folders.project, ".opencode/agent/helper.md"),
      "---\ndescription: Helps\nprompt: Other.\n---\nThe body.\n",
    );
    const { byName, diagnostics } = await load();
    expect(byName.get("helper")?.prompt).toBe("The body.");
    expect(diagnostics).toEqual([
      {
        severity: "info",
        file: join(folders.project, ".opencode/agent/helper.md"),
        line: 3,
        message: "prompt: the file body is the prompt",
        action: "ignored key prompt",
      },
    ]);
  });

  it("without a body or a prompt key is empty, with only the empty-prompt warning", async () => {
    await write(join(folders.project, ".opencode/agent/helper.md"), "---\ndescription: Helps\n---\n");
    const { byName, summary } = await load();
    expect(byName.get("helper")?.prompt).toBe("");
    expect(summary).toEqual(["warning: empty prompt → the agent runs with only the harness preamble"]);
  });

  it("{file:…} in its front matter is relative to the Markdown file, also when an entry merges in", async () => {
    await write(join(folders.project, ".opencode/agent/prompts/helper.md"), "Beside the agent.\n");
    await write(join(folders.project, "prompts/helper.md"), "Beside the config.\n");
    await write(
      join(folders.project, "opencode.json"),
      JSON.stringify({ agent: { helper: { mode: "subagent" } } }),
    );
    await write(
      join(folders.project, ".opencode/agent/helper.md"),
      "---\ndescription: Helps\nprompt: '{file:./prompts/helper.md}'\n---\n",
    );
    expect((await load()).byName.get("helper")?.prompt).toBe("Beside the agent.");
  });

  it("given by the merged entry's {file:…} is relative to the config", async () => {
    await write(join(folders.project, ".opencode/agent/prompts/helper.md"), "Beside the agent.\n");
    await write(join(folders.project, "prompts/helper.md"), "Beside the config.\n");
    await helperWithPrompt("{file:./prompts/helper.md}");
    await write(join(folders.project, ".opencode/agent/helper.md"), "---\nmode: subagent\n---\n");
    expect((await load()).byName.get("helper")?.prompt).toBe("Beside the config.");
  });
});
