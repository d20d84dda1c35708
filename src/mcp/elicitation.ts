import type { ElicitationAnswer, ElicitationField, ElicitationValue } from "./client-features.ts";

/**
 * A server's `requestedSchema` (a flat object of primitive properties, as MCP restricts it) as the
 * questions of a form; undefined for a schema outside that subset, which is declined rather than guessed.
 */
export function elicitationFields(schema: unknown): ElicitationField[] | undefined {
  if (!isObject(schema) || schema.type !== "object" || !isObject(schema.properties)) return undefined;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const fields: ElicitationField[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isObject(property)) return undefined;
    const field = fieldOf(name, property, required.has(name));
    if (field === undefined) return undefined;
    fields.push(field);
  }
  return fields;
}

function fieldOf(name: string, p: Record<string, unknown>, required: boolean): ElicitationField | undefined {
  const field: ElicitationField = { name, type: "string", required };
  if (typeof p.title === "string") field.title = p.title;
  if (typeof p.description === "string") field.description = p.description;
  if (typeof p.format === "string") field.format = p.format;
  if (typeof p.minimum === "number") field.minimum = p.minimum;
  if (typeof p.maximum === "number") field.maximum = p.maximum;
  if (p.type === "array" && isObject(p.items)) {
    const options = optionsOf(p.items);
    if (options === undefined) return undefined;
    field.options = options;
    field.multiple = true;
  } else if (p.type === "string") {
    const options = optionsOf(p);
    if (options !== undefined) field.options = options;
  } else if (p.type === "number" || p.type === "integer" || p.type === "boolean") {
    field.type = p.type;
  } else return undefined;
  const fallback = p.default;
  if (
    typeof fallback === "string" ||
    typeof fallback === "number" ||
    typeof fallback === "boolean" ||
    (Array.isArray(fallback) && fallback.every((value) => typeof value === "string"))
  )
    field.default = fallback;
  return field;
}

/** `enum` (with `enumNames`), or `oneOf`/`anyOf` of `{const, title}`: the allowed values. */
function optionsOf(p: Record<string, unknown>): Array<{ value: string; title?: string }> | undefined {
  if (Array.isArray(p.enum)) {
    const names = Array.isArray(p.enumNames) ? p.enumNames : [];
    return p.enum.map((value, index) => {
      const title = names[index];
      return typeof title === "string" ? { value: String(value), title } : { value: String(value) };
    });
  }
  const choices = Array.isArray(p.oneOf) ? p.oneOf : Array.isArray(p.anyOf) ? p.anyOf : undefined;
  if (choices === undefined) return undefined;
  return choices
    .filter(isObject)
    .map((choice) =>
      typeof choice.title === "string"
        ? { value: String(choice.const), title: choice.title }
        : { value: String(choice.const) },
    );
}

/**
 * A person's typed answer to one field, or the reason it is not one (`"…is not a number"`). An empty
 * answer is the field's default, or no value for an optional field.
 */
export function parseFieldAnswer(
  field: ElicitationField,
  text: string,
): { value: ElicitationValue | undefined } | { problem: string } {
  const answer = text.trim();
  if (answer === "") {
    if (field.default !== undefined) return { value: field.default };
    return field.required ? { problem: "an answer is required" } : { value: undefined };
  }
  if (field.options !== undefined) {
    const pick = (token: string) => {
      const index = Number(token);
      if (Number.isInteger(index) && index >= 1 && index <= (field.options?.length ?? 0))
        return field.options?.[index - 1]?.value;
      return field.options?.find((option) => option.value === token || option.title === token)?.value;
    };
    const tokens = field.multiple ? answer.split(",").map((token) => token.trim()) : [answer];
    const values = tokens.map(pick);
    if (values.some((value) => value === undefined))
      return { problem: `choose ${field.multiple ? "among" : "one of"} the numbers or values listed` };
    return { value: field.multiple ? (values as string[]) : (values[0] as string) };
  }
  switch (field.type) {
    case "boolean": {
      const yes = /^(y|yes|true|1)$/i.test(answer);
      if (!yes && !/^(n|no|false|0)$/i.test(answer)) return { problem: "answer y or n" };
      return { value: yes };
    }
    case "number":
    case "integer": {
      const number = Number(answer);
      if (!Number.isFinite(number) || (field.type === "integer" && !Number.isInteger(number)))
        return { problem: `not ${field.type === "integer" ? "a whole number" : "a number"}` };
      if (field.minimum !== undefined && number < field.minimum)
        return { problem: `at least ${field.minimum}` };
      if (field.maximum !== undefined && number > field.maximum)
        return { problem: `at most ${field.maximum}` };
      return { value: number };
    }
    case "string":
      return { value: answer };
  }
}

/** The answer when no one can be asked: declined, which the server reads as "the user said no". */
export const NO_ONE_TO_ASK: ElicitationAnswer = { action: "decline" };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
