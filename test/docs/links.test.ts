import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { headingAnchors, markdownLinks } from "./markdown-links.ts";

/**
 * Every relative link of the repository's own Markdown (README, ARCHITECTURE.md, docs/, the folders'
 * READMEs) leads somewhere: its file or folder exists, and its `#anchor` is a heading of that file as
 * GitHub names it. Moving the reference between pages must not leave a link behind.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Not ours to keep (copied agent files from other projects), or not Markdown we publish. */
const SKIPPED = new Set(["node_modules", ".git", "dist", "fixtures", ".agentry"]);

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

const anchorsOf = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  let found = anchorsOf.get(file);
  if (found === undefined) {
    found = headingAnchors(readFileSync(file, "utf8"));
    anchorsOf.set(file, found);
  }
  return found;
}

/** What is wrong with a link's target, or undefined when it leads somewhere. */
function problem(from: string, target: string): string | undefined {
  const hash = target.indexOf("#");
  const path = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const file = path === "" ? from : join(dirname(from), decodeURIComponent(path));
  if (!existsSync(file)) return "no such file";
  if (anchor === undefined) return undefined;
  if (statSync(file).isDirectory()) return "an anchor into a folder";
  if (!file.endsWith(".md")) return undefined;
  return anchors(file).has(anchor) ? undefined : `no heading #${anchor} in ${relative(ROOT, file)}`;
}

const FILES = markdownFiles(ROOT).map((file) => relative(ROOT, file).split(sep).join("/"));

describe("links between the docs", () => {
  it("finds the pages it must check", () => {
    expect(FILES).toEqual(expect.arrayContaining(["README.md", "ARCHITECTURE.md", "docs/cli.md"]));
  });

  it.each(FILES)("every relative link of %s resolves, file and anchor", (file) => {
    const path = join(ROOT, file);
    const broken = markdownLinks(readFileSync(path, "utf8"))
      .filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link.target))
      .flatMap((link) => {
        const why = problem(path, link.target);
        return why === undefined ? [] : [`${file}:${link.line}: (${link.target}): ${why}`];
      });
    expect(broken).toEqual([]);
  });
});
