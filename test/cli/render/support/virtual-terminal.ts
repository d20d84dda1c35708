import stringWidth from "string-width";

/**
 * Just enough of a terminal to check what a user would see: printable characters with line wrap (a
 * CJK character or an emoji takes two columns, and goes to the next row when only one is left),
 * `\r`, `\n` (as a tty's CR LF), cursor up (`ESC[nA`), column (`ESC[nG`), erase to the end of the
 * screen (`ESC[J`) and of the line (`ESC[K`). Colours are dropped. Rows never scroll away.
 */
export class VirtualTerminal {
  readonly isTTY = true;
  readonly columns: number;
  readonly rows: number;
  private screen: string[][] = [[]];
  private row = 0;
  private col = 0;
  /** Every chunk written, in order. */
  readonly writes: string[] = [];

  constructor(columns = 80, rows = 24) {
    this.columns = columns;
    this.rows = rows;
  }

  write(text: string): boolean {
    this.writes.push(text);
    let i = 0;
    while (i < text.length) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: this parses ANSI escape sequences.
      const sequence = /^\u001b\[([0-9;?]*)([A-Za-z])/.exec(text.slice(i));
      if (sequence) {
        this.control(sequence[2] ?? "", sequence[1] ?? "");
        i += sequence[0].length;
        continue;
      }
      const char = String.fromCodePoint(text.codePointAt(i) ?? 32);
      i += char.length;
      if (char === "\r") this.col = 0;
      else if (char === "\n") {
        this.row++;
        this.col = 0;
      } else this.put(char, stringWidth(char));
    }
    return true;
  }

  /** The screen as lines, trailing spaces and empty trailing lines removed. */
  text(): string {
    const lines = this.screen.map((line) => line.join("").trimEnd());
    while (lines.length > 0 && lines.at(-1) === "") lines.pop();
    return lines.join("\n");
  }

  private line(row: number): string[] {
    while (this.screen.length <= row) this.screen.push([]);
    return this.screen[row] as string[];
  }

  /** A character `width` columns wide; a zero-width one (a combining mark, a joiner) joins the cell before. */
  private put(char: string, width: number): void {
    if (width === 0) {
      const line = this.line(this.row);
      if (this.col > 0) line[this.col - 1] = (line[this.col - 1] ?? "") + char;
      return;
    }
    if (this.col + width > this.columns) {
      this.row++;
      this.col = 0;
    }
    const line = this.line(this.row);
    while (line.length < this.col) line.push(" ");
    line[this.col] = char;
    // The second column of a wide character holds nothing of its own.
    if (width === 2) line[this.col + 1] = "";
    this.col += width;
  }

  private control(command: string, argument: string): void {
    const n = argument === "" ? 1 : Number(argument);
    switch (command) {
      case "A":
        this.row = Math.max(0, this.row - n);
        return;
      case "G":
        this.col = Math.max(0, n - 1);
        return;
      case "J":
        this.line(this.row).length = Math.min(this.line(this.row).length, this.col);
        this.screen.length = this.row + 1;
        return;
      case "K":
        this.line(this.row).length = Math.min(this.line(this.row).length, this.col);
        return;
      default:
        return; // colours and anything else: no effect on the text
    }
  }
}
