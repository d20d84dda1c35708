import { hasOption, optionValues, parseOptions } from "./command-options.ts";

/**
 * What a `sed` invocation does beyond printing: `> file` for each file it writes (`-i`, the `w`
 * command, the `w` flag of `s`) and `!…` notes for what runs commands (`e`) or cannot be inspected
 * (`-f script`, an unknown option or command). An empty list means it only reads and prints.
 */
export function sedEffects(args: readonly string[]): string[] {
  const parsed = parseOptions(args, {
    value: ["e", "f", "l", "expression", "file", "line-length"],
    attached: ["i", "in-place"],
    flags: [
      ..."nErsuz",
      "quiet",
      "silent",
      "regexp-extended",
      "separate",
      "unbuffered",
      "null-data",
      "zero-terminated",
      "posix",
      "debug",
      "sandbox",
      "follow-symlinks",
      "help",
      "version",
    ],
  });
  const effects = parsed.unknown.map((option) => `!sed option ${option} is not understood`);
  if (hasOption(parsed, "f", "file")) effects.push("!sed script file is not inspected");
  const expressions = optionValues(parsed, "e", "expression");
  const scripted = expressions.length > 0 || hasOption(parsed, "f", "file");
  const scripts = scripted ? expressions : parsed.operands.slice(0, 1);
  const files = scripted ? parsed.operands : parsed.operands.slice(1);
  if (hasOption(parsed, "i", "in-place")) {
    effects.push(...(files.length > 0 ? files.map((file) => `> ${file}`) : ["!sed -i edits files in place"]));
  }
  for (const script of scripts) effects.push(...sedScriptEffects(script));
  return effects;
}

const SIMPLE_COMMANDS = new Set([..."=dDgGhHlnNpPxzFqQLv{}"]);

/** Walks a GNU sed script command by command; only `w`, `W`, `e` and the `s` flags `w`/`e` reach outside. */
export function sedScriptEffects(script: string): string[] {
  const effects: string[] = [];
  let i = 0;
  const skipTo = (stops: string) => {
    while (i < script.length && !stops.includes(script[i] as string)) i++;
  };
  const restOfLine = () => {
    const start = i;
    skipTo("\n");
    return script.slice(start, i).trim();
  };
  /** Reads up to the unescaped `delimiter`; returns false when it never comes. */
  const readDelimited = (delimiter: string) => {
    while (i < script.length) {
      const c = script[i++];
      if (c === "\\") i++;
      else if (c === delimiter) return true;
    }
    return false;
  };
  const readAddress = () => {
    const c = script[i];
    if (c === "$") i++;
    else if (c !== undefined && /[0-9]/.test(c)) {
      while (/[0-9~]/.test(script[i] ?? "")) i++;
    } else if (c === "/" || c === "\\") {
      i++;
      const delimiter = c === "/" ? "/" : (script[i++] ?? "");
      readDelimited(delimiter);
      while (script[i] === "I" || script[i] === "M") i++;
    }
  };
  while (i < script.length) {
    while (/[\s;]/.test(script[i] ?? "")) i++;
    readAddress();
    if (script[i] === ",") {
      i++;
      if (script[i] === "+" || script[i] === "~") i++;
      readAddress();
    }
    while (/[\s!]/.test(script[i] ?? "")) i++;
    const command = script[i++];
    if (command === undefined) break;
    if (
      command === "#" ||
      command === "a" ||
      command === "i" ||
      command === "c" ||
      command === "r" ||
      command === "R"
    ) {
      // Text or a file name to the end of the line (a/i/c continue over escaped newlines).
      while (i < script.length && script[i] !== "\n") i += script[i] === "\\" ? 2 : 1;
    } else if (command === ":" || command === "b" || command === "t" || command === "T") {
      skipTo(";\n");
    } else if (command === "w" || command === "W") {
      effects.push(`> ${restOfLine()}`);
    } else if (command === "e") {
      effects.push("!sed e command runs a shell command");
      restOfLine();
    } else if (command === "s" || command === "y") {
      const delimiter = script[i++] ?? "";
      const closed = readDelimited(delimiter) && readDelimited(delimiter);
      if (!closed) return [...effects, "!sed script is not understood"];
      if (command === "s") {
        while (/[gpiImMe0-9w]/.test(script[i] ?? "")) {
          const flag = script[i++];
          if (flag === "e") effects.push("!sed s///e runs the pattern space as a command");
          if (flag === "w") {
            effects.push(`> ${restOfLine()}`);
            break;
          }
        }
      }
    } else if (SIMPLE_COMMANDS.has(command)) {
      while (/[0-9 ]/.test(script[i] ?? "")) i++;
    } else {
      return [...effects, `!sed command '${command}' is not understood`];
    }
  }
  return effects;
}
