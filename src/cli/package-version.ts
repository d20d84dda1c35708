import { readFileSync } from "node:fs";

/** agentry's version, from its package.json (the checkout's or the installed package's). */
export function packageVersion(): string {
  const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  const version: unknown = (JSON.parse(text) as { version?: unknown }).version;
  return typeof version === "string" ? version : "0.0.0";
}
