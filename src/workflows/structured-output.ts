import { readFileSync } from "node:fs";
import { z } from "zod";
import { errorMessage } from "../text/error-message.ts";

const INSTRUCTIONS = readFileSync(new URL("./structured-output.md", import.meta.url), "utf8").trim();
const CORRECTION = readFileSync(new URL("./structured-correction.md", import.meta.url), "utf8").trim();

/** A JSON Schema of `agent()`'s `schema` option, compiled once per call. */
export interface OutputSchema {
  readonly json: Record<string, unknown>;
  readonly validator: z.ZodType;
}

/** Compiles a JSON Schema; throws with the reason when it is not one we can check. */
export function compileOutputSchema(json: Record<string, unknown>): OutputSchema {
  try {
    return { json, validator: z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]) };
  } catch (error) {
    throw new Error(`its schema is not a JSON Schema agentry can check: ${errorMessage(error)}`);
  }
}

/** The prompt with what the child's final reply must look like. */
export function withOutputInstructions(prompt: string, schema: OutputSchema): string {
  return `${prompt}\n\n${INSTRUCTIONS.replace("{{schema}}", JSON.stringify(schema.json, null, 2))}`;
}

/** The corrective turn's message, after a reply that did not validate. */
export function correctionMessage(error: string): string {
  return CORRECTION.replace("{{error}}", error);
}

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The child's final text as the schema's value: the whole text, or the JSON inside a Markdown fence
 * (models add one despite being told not to), validated.
 */
export function parseOutput(text: string, schema: OutputSchema): Parsed {
  const candidate = unfenced(text.trim());
  let value: unknown;
  try {
    value = JSON.parse(candidate);
  } catch (error) {
    const shown = candidate.length > 200 ? `${candidate.slice(0, 200)}…` : candidate;
    return {
      ok: false,
      error: `it is not JSON (${errorMessage(error)}): ${JSON.stringify(shown)}`,
    };
  }
  const checked = schema.validator.safeParse(value);
  if (checked.success) return { ok: true, value };
  const problems = checked.error.issues.map(
    (issue) => `${issue.path.map(String).join(".") || "(the value)"}: ${issue.message}`,
  );
  return { ok: false, error: `it does not match the schema: ${problems.join("; ")}` };
}

function unfenced(text: string): string {
  const fenced = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n```$/.exec(text);
  return fenced?.[1]?.trim() ?? text;
}
