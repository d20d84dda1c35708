import type { AgentFormat, AgentMode, AgentSourceKind } from "../definition.ts";
import { parseFrontMatter } from "../front-matter.ts";
import type { Draft, KeyHandler, LoadResult, NameOptions } from "./load-context.ts";
import { applyKeys, finish, LoadContext, resolveName } from "./load-context.ts";

/** What tells one Markdown format (agentry, AgentScope, Claude Code, OpenCode) from another. */
export interface MarkdownFormat {
  format: AgentFormat;
  /** The mode of an agent whose file does not say. */
  mode: AgentMode;
  handlers: Readonly<Record<string, KeyHandler>>;
  name: NameOptions;
  /** A file whose text is appended to the prompt (AgentScope's `workspace.path` folder's `AGENTS.md`). */
  promptFile?: (draft: Draft) => string | undefined;
}

/**
 * Loads an agent file of a Markdown format: front matter (strict YAML, else lenient), identity, then
 * every key through the format's handlers. Never throws: problems are diagnostics.
 */
export function loadMarkdownAgent(
  text: string,
  path: string,
  kind: AgentSourceKind,
  format: MarkdownFormat,
): LoadResult {
  const fm = parseFrontMatter(text, path);
  const ctx = new LoadContext(path, fm.keyLines, fm.diagnostics);
  if (!fm.present) {
    ctx.fail("no front matter: an agent file starts with a `---` block holding at least a description");
    return finish({}, ctx);
  }
  if (ctx.isSkipped) return finish({}, ctx);
  const draft: Draft = { mode: format.mode, prompt: fm.body, source: { kind, format: format.format, path } };
  draft.name = resolveName(fm.data.name, path, ctx, format.name);
  applyKeys(fm.data, format.handlers, draft, ctx);
  return finish(draft, ctx, format.promptFile?.(draft));
}
