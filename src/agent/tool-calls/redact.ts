/**
 * Keeps secrets out of what the model sees and what is stored: tool output (and progress) passes
 * through a redactor before it reaches the transcript, the events or the spill files.
 */
export type Redactor = (text: string) => string;

/** Environment variables whose values are treated as secrets. */
const SECRET_NAME = /(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_KEY|ACCESS_KEY|AUTH)/i;
/** Shorter values are too likely to occur in ordinary output ("true", "1234"). */
const MIN_SECRET_LENGTH = 8;

/**
 * A redactor that replaces the value of every secret-looking environment variable (and any extra
 * secrets given, e.g. API keys from config files) with `[REDACTED:<NAME>]`.
 */
export function createRedactor(
  env: Record<string, string | undefined>,
  extra: Record<string, string | undefined> = {},
): Redactor {
  const secrets = new Map<string, string>();
  const add = (name: string, value: string | undefined) => {
    const trimmed = value?.trim();
    if (trimmed && trimmed.length >= MIN_SECRET_LENGTH && !secrets.has(trimmed)) secrets.set(trimmed, name);
  };
  for (const [name, value] of Object.entries(env)) if (SECRET_NAME.test(name)) add(name, value);
  for (const [name, value] of Object.entries(extra)) add(name, value);
  if (secrets.size === 0) return (text) => text;
  // Longest first, so a secret that contains another is replaced whole.
  const ordered = [...secrets.entries()].sort((a, b) => b[0].length - a[0].length);
  const pattern = new RegExp(ordered.map(([value]) => escapeRegExp(value)).join("|"), "g");
  return (text) =>
    text.length === 0 ? text : text.replace(pattern, (match) => `[REDACTED:${secrets.get(match)}]`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
