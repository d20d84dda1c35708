import { z } from "zod";
import { didYouMean } from "./did-you-mean.ts";

/**
 * Turns zod issues into lines a user can act on, each naming the file and the key path:
 * `agentry.json: "maxTurns" must be a positive integer (got "ten")`,
 * `agentry.json: unknown key "maxTurn" (did you mean "maxTurns"?)`.
 */
export function formatConfigIssues(
  file: string,
  issues: readonly z.core.$ZodIssue[],
  schema: z.ZodType,
): string {
  return issues.map((issue) => `${file}: ${describeIssue(issue, schema)}`).join("\n");
}

function describeIssue(issue: z.core.$ZodIssue, schema: z.ZodType): string {
  const where = keyPath(issue.path);
  if (issue.code === "unrecognized_keys") {
    const known = knownKeysAt(schema, issue.path);
    return issue.keys
      .map((key) => {
        const full = keyPath([...issue.path, key]);
        const suggestion = didYouMean(key, known);
        const hint = suggestion
          ? ` (did you mean "${keyPath([...issue.path, suggestion])}"?)`
          : known.length > 0
            ? ` (known keys: ${known.join(", ")})`
            : "";
        return `unknown key "${full}"${hint}`;
      })
      .join("; ");
  }
  const got = "input" in issue && issue.input !== undefined ? ` (got ${preview(issue.input)})` : "";
  const subject = where === "" ? "the file" : `"${where}"`;
  if (issue.code === "invalid_type" && issue.input === undefined) return `${subject} is required`;
  return `${subject} ${readableMessage(issue)}${got}`;
}

/** Zod's built-in messages ("Invalid input: expected object, received string") read poorly after a key. */
function readableMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && issue.message.startsWith("Invalid input")) {
    const expected = issue.expected === "record" ? "object" : issue.expected;
    return `must be ${/^[aeiou]/.test(expected) ? "an" : "a"} ${expected}`;
  }
  return issue.message;
}

/** `providers.openaiCompatible.vllm.baseUrl`, with non-identifier keys quoted. */
function keyPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) => {
      if (typeof part === "number") return `[${part}]`;
      const name = String(part);
      const plain = /^[A-Za-z_$][\w$-]*$/.test(name) ? name : JSON.stringify(name);
      return index === 0 ? plain : `.${plain}`;
    })
    .join("");
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The keys an object schema accepts at `path`, to suggest a correction for a typo. */
function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: z.ZodType | undefined = unwrap(schema);
  for (const _ of path) {
    if (current instanceof z.ZodObject) {
      const next: unknown = current.shape[String(_)];
      current = next instanceof z.ZodType ? unwrap(next) : undefined;
    } else if (current instanceof z.ZodRecord) {
      current = unwrap(current.valueType as z.ZodType);
    } else {
      return [];
    }
  }
  return current instanceof z.ZodObject ? Object.keys(current.shape).filter((key) => key !== "$schema") : [];
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodExactOptional) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}
