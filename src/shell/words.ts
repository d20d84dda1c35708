import { decodeAnsiC } from "./ansi-c-quote.ts";
import { MAX_NESTING, type ParsedShell, type ShellWord, type SimpleCommand, WORD_END } from "./syntax.ts";

/**
 * The word level of the shell scanner: quotes, escapes, `$…` expansions and backquotes. It keeps
 * the cursor and the findings; the command level (`ShellScanner`) supplies `parseList`, which `$(…)`
 * and `<(…)` call to scan the commands inside.
 */
export abstract class ShellWordReader {
  readonly commands: SimpleCommand[] = [];
  readonly problems: string[] = [];
  protected readonly src: string;
  protected readonly depth: number;
  protected i = 0;

  constructor(src: string, depth: number) {
    this.src = src;
    this.depth = depth;
  }

  /** Commands up to the end or, when `closing`, the matching `)` (consumed). */
  abstract parseList(closing: boolean): void;

  /** A separate script (the body of backquotes), scanned from its own start. */
  protected abstract scanNested(source: string): ParsedShell;

  protected readWord(): ShellWord {
    let text = "";
    let quoted = false;
    const start = this.i;
    while (this.i < this.src.length) {
      const c = this.src[this.i] as string;
      const next = this.src[this.i + 1];
      if (this.i === start && (c === "<" || c === ">") && next === "(") {
        this.i += 2;
        this.parseList(true);
        text += this.src.slice(start, this.i);
        continue;
      }
      if (WORD_END.has(c)) break;
      if (c === "\\") {
        if (next !== "\n") {
          text += next ?? "";
          quoted = true;
        }
        this.i += 2;
      } else if (c === "'") {
        quoted = true;
        text += this.readSingleQuoted();
      } else if (c === '"') {
        quoted = true;
        text += this.readDoubleQuoted();
      } else if (c === "$") {
        if (next === "'" || next === '"') quoted = true;
        text += this.readDollar();
      } else if (c === "`") {
        text += this.readBackticks();
      } else {
        text += c;
        this.i++;
      }
    }
    return { text, quoted };
  }

  protected readSingleQuoted(): string {
    const end = this.src.indexOf("'", this.i + 1);
    if (end === -1) {
      this.problem("unterminated ' quote");
      const rest = this.src.slice(this.i + 1);
      this.i = this.src.length;
      return rest;
    }
    const text = this.src.slice(this.i + 1, end);
    this.i = end + 1;
    return text;
  }

  protected readDoubleQuoted(): string {
    let text = "";
    this.i++;
    while (this.i < this.src.length) {
      const c = this.src[this.i] as string;
      const next = this.src[this.i + 1];
      if (c === '"') {
        this.i++;
        return text;
      }
      if (c === "\\" && next !== undefined && '$`"\\\n'.includes(next)) {
        if (next !== "\n") text += next;
        this.i += 2;
      } else if (c === "$") {
        text += this.readDollar();
      } else if (c === "`") {
        text += this.readBackticks();
      } else {
        text += c;
        this.i++;
      }
    }
    this.problem('unterminated " quote');
    return text;
  }

  /** `$(…)`, `$((…))`, `${…}`, `$'…'`, `$"…"` or a plain `$`; returns the text the word keeps. */
  protected readDollar(): string {
    const start = this.i;
    const next = this.src[this.i + 1];
    if (next === "(" && this.src[this.i + 2] === "(") {
      this.i += 3;
      this.skipBalanced("(", ")", 2);
      // Arithmetic only when it closes with `))`: bash runs `$((rm x) )` as a command substitution.
      if (this.src.slice(this.i - 2, this.i) !== "))") {
        this.i = start + 2;
        this.parseList(true);
      }
    } else if (next === "(") {
      this.i += 2;
      this.parseList(true);
    } else if (next === "{") {
      this.i += 2;
      // bash ends `${…}` at the first `}` outside quotes and nested expansions; a bare `{` opens
      // nothing, so `${x:-{a} ;rm y}` runs `rm y}`.
      this.skipBalanced(undefined, "}", 1);
    } else if (next === "'") {
      this.i++;
      return decodeAnsiC(this.readSingleQuotedAnsiC());
    } else if (next === '"') {
      this.i++;
      return this.readDoubleQuoted();
    } else {
      this.i++;
    }
    return this.src.slice(start, this.i);
  }

  /** Arithmetic and `${…}` bodies: only their nested substitutions matter. */
  protected skipBalanced(open: string | undefined, close: string, depth: number): void {
    while (this.i < this.src.length && depth > 0) {
      const c = this.src[this.i] as string;
      if (c === "\\") this.i += 2;
      else if (c === "'") this.readSingleQuoted();
      else if (c === '"') this.readDoubleQuoted();
      else if (c === "$") this.readDollar();
      else if (c === "`") this.readBackticks();
      else {
        if (c === open) depth++;
        else if (c === close) depth--;
        this.i++;
      }
    }
    if (depth > 0) this.problem(`missing ${close}`);
  }

  protected readSingleQuotedAnsiC(): string {
    let text = "";
    this.i++;
    while (this.i < this.src.length) {
      const c = this.src[this.i] as string;
      if (c === "'") {
        this.i++;
        return text;
      }
      if (c === "\\") {
        text += this.src.slice(this.i, this.i + 2);
        this.i += 2;
      } else {
        text += c;
        this.i++;
      }
    }
    this.problem("unterminated $' quote");
    return text;
  }

  /** Backquoted commands are scanned as a script of their own, after their own escapes are undone. */
  protected readBackticks(): string {
    const start = this.i;
    let body = "";
    this.i++;
    for (;;) {
      const c = this.src[this.i];
      if (c === undefined) {
        this.problem("unterminated ` quote");
        break;
      }
      this.i++;
      if (c === "`") break;
      if (c === "\\" && this.src[this.i] !== undefined && "`$\\".includes(this.src[this.i] as string)) {
        body += this.src[this.i];
        this.i++;
      } else {
        body += c;
      }
    }
    if (this.depth >= MAX_NESTING) {
      this.problem("nesting too deep");
    } else {
      const inner = this.scanNested(body);
      this.commands.push(...inner.commands);
      this.problems.push(...inner.problems);
    }
    return this.src.slice(start, this.i);
  }

  /** Unquoted here-document bodies still run substitutions. */
  protected scanExpansions(end: number): void {
    while (this.i < end) {
      const c = this.src[this.i];
      if (c === "\\") this.i += 2;
      else if (c === "$") this.readDollar();
      else if (c === "`") this.readBackticks();
      else this.i++;
    }
  }

  protected skipBlanks(): void {
    for (;;) {
      const c = this.src[this.i];
      if (c === " " || c === "\t") this.i++;
      else if (c === "\\" && this.src[this.i + 1] === "\n") this.i += 2;
      else return;
    }
  }

  protected problem(message: string): void {
    if (!this.problems.includes(message)) this.problems.push(message);
  }
}
