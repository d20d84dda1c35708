import { type BrowserContext, chromium } from "playwright-core";
import { CHROMIUM, commandPath } from "../../support/components.ts";
import { tempDir } from "../../support/temp-dir.ts";

/**
 * Debian's chromium driven by playwright-core: never a downloaded browser. Headless, quiet (no network
 * of its own, no updates, no sync) and with a fresh profile per test. Close the context when done.
 */
export async function openBrowser(): Promise<BrowserContext> {
  const executablePath = commandPath(CHROMIUM);
  if (executablePath === undefined)
    throw new Error("chromium is not on PATH (describeWith(CHROMIUM) runs this)");
  return chromium.launchPersistentContext(await tempDir("agentry-chromium-"), {
    executablePath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}
