import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Diagnostic } from "../../src/agents/diagnostics.ts";

/** Absolute path of a file under `test/agents/fixtures/`. */
export function fixturePath(relative: string): string {
  return fileURLToPath(new URL(`./fixtures/${relative}`, import.meta.url));
}

export function readFixture(relative: string): { text: string; path: string } {
  const path = fixturePath(relative);
  return { text: readFileSync(path, "utf8"), path };
}

/** The diagnostics as `severity: message → action` lines, for readable assertions. */
export function summarize(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.severity}: ${d.message} → ${d.action}`);
}
