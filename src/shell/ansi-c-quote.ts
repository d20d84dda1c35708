const ANSI_C_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Decodes the body of a `$'…'` word: `$'\x72m'` is `rm`, so a rule sees the command that will run. */
export function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/g,
    (_match, sequence: string) => {
      const kind = sequence[0] as string;
      if (kind === "x" || kind === "u" || kind === "U") {
        const code = Number.parseInt(sequence.slice(1), 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
      }
      if (/[0-7]/.test(kind)) return String.fromCharCode(Number.parseInt(sequence, 8));
      if (kind === "c") return String.fromCharCode((sequence.charCodeAt(1) ?? 64) & 31);
      return ANSI_C_ESCAPES[sequence] ?? `\\${sequence}`;
    },
  );
}
