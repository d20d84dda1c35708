import { StringDecoder } from "node:string_decoder";

const MAX_LINE_CHARS = 500;

/** The last `max` lines written to a stream (a server's stderr), each cut at 500 characters. */
export class LineTail {
  private readonly max: number;
  private readonly kept: string[] = [];
  private readonly decoder = new StringDecoder("utf8");
  private partial = "";

  constructor(max = 20) {
    this.max = max;
  }

  write(chunk: Buffer | string): void {
    const text = this.partial + (typeof chunk === "string" ? chunk : this.decoder.write(chunk));
    const pieces = text.split(/\r?\n/);
    this.partial = (pieces.pop() ?? "").slice(0, MAX_LINE_CHARS * 4);
    for (const piece of pieces) this.push(piece);
  }

  /** The kept lines, the unfinished last one included, without blank ones. */
  lines(): string[] {
    const partial = this.partial.trim() === "" ? [] : [cut(this.partial)];
    return [...this.kept, ...partial].slice(-this.max);
  }

  private push(line: string): void {
    if (line.trim() === "") return;
    this.kept.push(cut(line));
    if (this.kept.length > this.max) this.kept.shift();
  }
}

function cut(line: string): string {
  const trimmed = line.trimEnd();
  return trimmed.length > MAX_LINE_CHARS ? `${trimmed.slice(0, MAX_LINE_CHARS)}…` : trimmed;
}
