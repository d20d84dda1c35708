import { describe, expect, it } from "vitest";
import {
  bashPermissionPatterns,
  isReadOnlyBashCommand,
  READ_ONLY_BASH_RULES,
  REVIEW_BASH_RULES,
} from "../../src/permissions/bash-command.ts";
import { evaluateRequest } from "../../src/permissions/evaluate.ts";
import type { Ruleset } from "../../src/permissions/types.ts";

const allowed = (rules: Ruleset, command: string) =>
  evaluateRequest(rules, "bash", bashPermissionPatterns(command)).action === "allow";

describe("READ_ONLY_BASH_RULES / isReadOnlyBashCommand", () => {
  it.each([
    "ls",
    "ls -la src",
    "cat package.json",
    "head -n 50 src/a.ts",
    "tail -20 log.txt",
    "wc -l src/*.ts",
    "grep -rn 'TODO' src",
    "rg --files | head",
    "find . -name '*.ts' -not -path './node_modules/*'",
    "find . -name '*.ts' -exec wc -l {} +",
    "git status",
    "git status --short",
    "git log --oneline -10",
    "git --no-pager log -5",
    "git diff HEAD~1 -- src",
    "git show HEAD:package.json",
    "git branch",
    "git branch --list 'feat/*'",
    "git rev-parse --show-toplevel",
    "git ls-files | wc -l",
    "git blame src/a.ts",
    "pwd",
    "echo hello",
    "which node",
    "file README.md",
    "stat src",
    "du -sh .",
    "tree -L 2",
    "sort names.txt | uniq -c | sort -rn",
    "cut -d: -f1 /etc/passwd",
    "jq .scripts package.json",
    "node --version",
    "sed -n '10,20p' src/a.ts",
    "sed 's/foo/bar/g' src/a.ts",
    "awk '{print $1}' f",
    "cat a 2>/dev/null || echo missing",
    "cd src && ls",
    "find . -name '*.ts' | xargs grep -l foo",
    "diff <(ls a) <(ls b)",
    "echo $(git rev-parse HEAD)",
    "for f in *.md; do head -1 $f; done",
    "if [ -f x ]; then cat x; fi",
  ])("allows %s", (command) => {
    expect(isReadOnlyBashCommand(command)).toBe(true);
  });

  it.each([
    // compound commands cannot smuggle writes past `ls *`
    "ls; rm -rf x",
    // a loop variable that bash or a program reads: ./bin/cat runs, git reads a planted .gitconfig
    "for PATH in ./bin; do cat x; done",
    "select PATH in ./bin; do cat x; done",
    "for HOME in .; do git status; done",
    "ls && touch y",
    "ls || rm x",
    "ls & rm x",
    "ls\nrm x",
    "cat a > b",
    "cat a >> b",
    "ls 2> errors.txt",
    "ls &> all.txt",
    "echo $(rm x)",
    "echo `rm x`",
    "`rm x`",
    'echo "$(rm x)"',
    "ls | tee f",
    "(rm x)",
    "{ rm x; }",
    "ls <(rm x)",
    "sed -i 's/a/b/' f",
    "sed -i.bak 's/a/b/' f",
    "sed 's/a/b/w out' f",
    "sed '1e rm x' f",
    "find . -delete",
    "find . -name x -exec rm {} \\;",
    "find . -execdir rm {} +",
    "find . -fprint out",
    "awk '{system(\"rm x\")}' f",
    "awk '{print > \"out\"}' f",
    "awk '{print | \"sh\"}' f",
    "sort -o out in",
    "uniq in out",
    "git diff --output=patch.txt",
    "git branch new-branch",
    "git checkout main",
    "git push",
    "xargs rm",
    "find . | xargs rm",
    "find . | xargs -X cat rm",
    "rg --pre ./evil.sh foo",
    "bash -c 'ls'",
    "sh -c 'cat x'",
    "eval ls",
    "sudo ls",
    "PAGER=evil git log",
    "X=1",
    "cat <<EOF\n$(rm x)\nEOF",
    "npm test",
    "npm install",
    'node -e \'require("fs").rmSync("x")\'',
    'python3 -c \'open("x","w")\'',
    "touch x",
    "mkdir d",
    "rm x",
    "cp a b",
    "mv a b",
    "chmod +x a",
    "curl -o x http://example.com",
    "tee out",
    "env",
    "echo 'unterminated",
    "",
  ])("refuses %j", (command) => {
    expect(isReadOnlyBashCommand(command)).toBe(false);
    expect(allowed(READ_ONLY_BASH_RULES, command)).toBe(false);
  });

  it("denies rather than asks, so a read-only agent never prompts", () => {
    expect(evaluateRequest(READ_ONLY_BASH_RULES, "bash", bashPermissionPatterns("ls; rm x")).action).toBe(
      "deny",
    );
  });
});

describe("REVIEW_BASH_RULES", () => {
  it.each([
    "npm test",
    "npm run test -- --run",
    "npx vitest run src/a.test.ts",
    "pytest -q tests",
    "go test ./...",
    "cargo test",
    "ls",
  ])("allows %s", (command) => {
    expect(allowed(REVIEW_BASH_RULES, command)).toBe(true);
  });

  it.each([
    "npx vitest -u",
    "npx vitest run --update",
    "npx jest --updateSnapshot",
    "npm test -- -u",
    "npx vitest --watch",
    "npm test > out.txt",
    "npm install",
    "rm x",
  ])("refuses %s", (command) => {
    expect(allowed(REVIEW_BASH_RULES, command)).toBe(false);
  });

  it("is not what read-only agents get", () => {
    expect(allowed(READ_ONLY_BASH_RULES, "npm test")).toBe(false);
  });
});
