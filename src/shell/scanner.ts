import { MAX_NESTING, type ParsedShell, type ShellWord, type SimpleCommand, WORD_END } from "./syntax.ts";
import { ShellWordReader } from "./words.ts";

export type { ParsedShell, ShellRedirect, ShellWord, SimpleCommand } from "./syntax.ts";

/** Words that only shape control flow; the command proper starts after them. */
const KEYWORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "esac",
  "!",
  "{",
  "}",
]);
/** `time`'s own options (bash's keyword takes `-p`, and `--` ends them). */
const TIME_OPTIONS = new Set(["-p", "--"]);
/** Keywords whose remaining words are a header, not a command (`for f in *.ts`). */
const HEADER_KEYWORDS = new Set(["for", "select", "case"]);
const REDIRECT_OPS = ["&>>", "&>", "<<<", "<<-", "<<", "<>", "<&", ">>", ">&", ">|", "<", ">"];
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/**
 * A small scanner for the subset of shell syntax that decides what a command line runs: lists and
 * pipelines, quotes and escapes, redirections, here-documents, command and process substitution,
 * subshells and compound-command keywords. It never executes or expands anything; substitutions are
 * kept as source text in their word and their inner commands are listed as commands of their own.
 * Anything it cannot follow is reported in `problems`, so callers can refuse to wave it through.
 */
export function parseShell(source: string): ParsedShell {
  const scanner = new ShellScanner(source, 0);
  scanner.parseList(false);
  return { commands: scanner.commands, problems: scanner.problems };
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  expand: boolean;
}

class ShellScanner extends ShellWordReader {
  private nesting = 0;
  private heredocs: PendingHeredoc[] = [];

  protected scanNested(source: string): ParsedShell {
    const inner = new ShellScanner(source, this.depth + 1);
    inner.parseList(false);
    return inner;
  }

  /** Commands separated by `;`, `&`, `&&`, `||`, `|`, `|&` or newlines, up to the end or, when `closing`, a `)`. */
  parseList(closing: boolean): void {
    if (++this.nesting > MAX_NESTING) {
      this.problem("nesting too deep");
      this.i = this.src.length;
    }
    for (;;) {
      this.parseCommand();
      const c = this.src[this.i];
      if (c === undefined) {
        if (closing) this.problem("missing )");
        break;
      }
      this.i++;
      if (c === ")") {
        if (closing) break;
        this.problem("unexpected )");
      } else if (c === "\n") {
        this.readHeredocBodies();
      } else {
        // The `&` of `&&`, `|&` or `;&` belongs to that operator, not to a `&>` after it; any other
        // operator character ends the (empty) command that follows.
        while (this.src[this.i] === "&") this.i++;
      }
    }
    this.nesting--;
  }

  private parseCommand(): void {
    while (this.parseSimpleCommand());
  }

  /**
   * One simple command (or a compound command's header). True when it ended at the `do` of
   * `for NAME do …`, which needs no `;` before it: the body's first command follows on the same line.
   */
  private parseSimpleCommand(): boolean {
    const cmd: SimpleCommand = { assignments: [], words: [], redirects: [] };
    const index = this.commands.length;
    this.commands.push(cmd);
    let header = false;
    /** What the last keyword lets come next: `time`'s options, `coproc`'s NAME before a compound command, a function's name. */
    let opened: "time" | "coproc" | "function" | undefined;
    for (;;) {
      this.skipBlanks();
      const c = this.src[this.i];
      const next = this.src[this.i + 1];
      if (c === undefined || c === "\n" || c === ";" || c === "|" || c === ")") break;
      if (c === "&" && next !== ">") break;
      if (c === "#") {
        while (this.i < this.src.length && this.src[this.i] !== "\n") this.i++;
        continue;
      }
      if (c === "(") {
        this.i++;
        if (cmd.words.length > 0 && this.peekAfterBlanks() === ")") {
          // `name() { …; }`: a function definition; its name is not a command, its body is.
          this.skipBlanks();
          this.i++;
          cmd.words = [];
          continue;
        }
        if (cmd.words.length > 0) this.problem("unexpected (");
        this.parseList(true);
        continue;
      }
      if ((c === "<" || c === ">") && next !== "(") {
        this.parseRedirect(cmd, undefined);
        continue;
      }
      if (c === "&") {
        this.parseRedirect(cmd, undefined);
        continue;
      }
      const wordStart = this.i;
      const word = this.readWord();
      const after = this.src[this.i];
      if (header && !word.quoted && word.text === "do" && cmd.words.length === 2) {
        cmd.words.push(word);
        break;
      }
      if (!word.quoted && /^\d+$/.test(word.text) && (after === "<" || after === ">")) {
        this.parseRedirect(cmd, word.text);
        continue;
      }
      if (cmd.words.length === 0 && cmd.assignments.length === 0 && !word.quoted && !header) {
        const previous = opened;
        opened = undefined;
        if (previous === "time" && TIME_OPTIONS.has(word.text)) {
          opened = "time";
          continue;
        }
        // `coproc NAME { …; }` / `coproc NAME ( … )`: NAME names the coprocess; the body is the command.
        // `coproc cmd args` runs cmd.
        const next = this.peekAfterBlanks();
        if (previous === "coproc" && /^[A-Za-z_]\w*$/.test(word.text) && (next === "{" || next === "("))
          continue;
        // `function NAME { …; }`: NAME is not a command, the body is.
        if (previous === "function") continue;
        if (word.text === "time" || word.text === "coproc" || word.text === "function") {
          opened = word.text;
          continue;
        }
        if (KEYWORDS.has(word.text)) continue;
        if (HEADER_KEYWORDS.has(word.text)) header = true;
      }
      // The name must be unquoted (`"A=1" cmd` runs a command named `A=1`); the value may be quoted.
      if (cmd.words.length === 0 && !header && ASSIGNMENT.test(this.src.slice(wordStart, this.i))) {
        cmd.assignments.push(word);
        continue;
      }
      cmd.words.push(word);
    }
    const bodyFollows = header && cmd.words.length === 3 && cmd.words[2]?.text === "do";
    if (header) {
      cmd.assignments.push(...loopAssignments(cmd.words));
      cmd.words = [];
    }
    if (cmd.words.length === 0 && cmd.assignments.length === 0 && cmd.redirects.length === 0) {
      this.commands.splice(index, 1);
    }
    return bodyFollows;
  }

  private parseRedirect(cmd: SimpleCommand, fd: string | undefined): void {
    const op = REDIRECT_OPS.find((candidate) => this.src.startsWith(candidate, this.i)) ?? ">";
    this.i += op.length;
    this.skipBlanks();
    const c = this.src[this.i];
    const processSubstitution = (c === "<" || c === ">") && this.src[this.i + 1] === "(";
    if (c === undefined || (WORD_END.has(c) && !processSubstitution)) {
      this.problem(`missing target after ${op}`);
      return;
    }
    const target = this.readWord();
    cmd.redirects.push(fd === undefined ? { op, target } : { op, fd, target });
    if (op === "<<" || op === "<<-") {
      this.heredocs.push({ delimiter: target.text, stripTabs: op === "<<-", expand: !target.quoted });
    }
  }

  /** After a newline: the bodies of pending here-documents; unquoted ones still run substitutions. */
  private readHeredocBodies(): void {
    const pending = this.heredocs;
    this.heredocs = [];
    for (const doc of pending) {
      const body = this.readHeredocBody(doc);
      if (doc.expand) this.scanHeredocBody(body);
    }
  }

  /**
   * One body, up to its delimiter line, as bash reads it: in an unquoted body a line ending in an
   * unescaped `\` is joined to the next before the delimiter is looked for (`E\⏎OF` ends `<<EOF`).
   */
  private readHeredocBody(doc: PendingHeredoc): string {
    const lines: string[] = [];
    while (this.i < this.src.length) {
      let line = "";
      for (;;) {
        const newline = this.src.indexOf("\n", this.i);
        const part = this.src.slice(this.i, newline === -1 ? this.src.length : newline);
        this.i = newline === -1 ? this.src.length : newline + 1;
        const continued = doc.expand && (/\\+$/.exec(part)?.[0].length ?? 0) % 2 === 1;
        line += continued ? part.slice(0, -1) : part;
        if (!continued) break;
      }
      if ((doc.stripTabs ? line.replace(/^\t+/, "") : line) === doc.delimiter) break;
      lines.push(line);
    }
    return lines.join("\n");
  }

  /**
   * The joined body is scanned on its own, as bash expands it: a substitution may span lines
   * (`$(a⏎)$(b)`) or a joined line (`$\⏎(b)`). It shares this line's nesting, so bodies nested in
   * bodies stay within the limit.
   */
  private scanHeredocBody(body: string): void {
    const inner = new ShellScanner(body, this.depth);
    inner.nesting = this.nesting;
    inner.scanExpansions(body.length);
    this.commands.push(...inner.commands);
    for (const problem of inner.problems) this.problem(problem);
  }

  private peekAfterBlanks(): string | undefined {
    const saved = this.i;
    this.skipBlanks();
    const c = this.src[this.i];
    this.i = saved;
    return c;
  }
}

/**
 * `for NAME in a b` and `select NAME in a b` assign each word to NAME in turn (`NAME=a`, `NAME=b`),
 * and without `in` the arguments (`NAME=$@`): as good as `NAME=a` written out, so `for PATH in ./bin`
 * is seen to set PATH. A lowercase name is the loop's own: bash and the programs it runs read only
 * uppercase ones (`PATH`, `HOME`, `IFS`, `GIT_DIR`), but for the `*_proxy` family, so `for f in *.md`
 * stays the plain loop it is.
 */
function loopAssignments(header: readonly ShellWord[]): ShellWord[] {
  const [keyword, name, inWord, ...list] = header;
  if (keyword === undefined || name === undefined || !["for", "select"].includes(keyword.text)) return [];
  if (keyword.quoted || name.quoted || !/^[A-Za-z_]\w*$/.test(name.text)) return [];
  if (/^[a-z_][a-z0-9_]*$/.test(name.text) && !name.text.endsWith("_proxy")) return [];
  // `for NAME; do` and `for NAME do` loop over the arguments.
  if (inWord === undefined || inWord.text === "do") return [{ text: `${name.text}=$@`, quoted: false }];
  if (inWord.text !== "in" || inWord.quoted) return [];
  return list.map((word) => ({ text: `${name.text}=${word.text}`, quoted: word.quoted }));
}
