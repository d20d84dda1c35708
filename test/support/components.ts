import { spawnSync } from "node:child_process";
import { describe, it } from "vitest";

/** A program some tests need from the machine, and the Debian package that provides it. */
export interface Component {
  command: string;
  debianPackage: string;
  /** What the tests use it for, for the message. */
  purpose: string;
}

export const RIPGREP: Component = { command: "rg", debianPackage: "ripgrep", purpose: "grep's fast backend" };
export const SCRIPT: Component = {
  command: "script",
  debianPackage: "bsdutils",
  purpose: "a pseudo-terminal for the interactive tests",
};
export const BUBBLEWRAP: Component = {
  command: "bwrap",
  debianPackage: "bubblewrap",
  purpose: "the command sandbox",
};

export const JQ: Component = {
  command: "jq",
  debianPackage: "jq",
  purpose: "the public Claude Code hook scripts the hook tests run",
};

export const REDIS: Component = {
  command: "redis-server",
  debianPackage: "redis-server",
  purpose: "the fleet's task store and queue",
};

export const CHROMIUM: Component = {
  command: "chromium",
  debianPackage: "chromium",
  purpose: "the browser that tests agentry ui's page (driven by playwright-core, which downloads none)",
};

/** The absolute path of `component`'s command on this machine's PATH, if it is there. */
export function commandPath(component: Component): string | undefined {
  const found = spawnSync("sh", ["-c", `command -v ${component.command}`], { encoding: "utf8" });
  const path = found.stdout.trim();
  return found.status === 0 && path.startsWith("/") ? path : undefined;
}

/** Under CI a test never skips for want of something: the run fails and says what to install. */
export const isCI = (): boolean => process.env.CI === "true" || process.env.CI === "1";

export function missingMessage(component: Component): string {
  return (
    `${component.command} is not on PATH: install the Debian package ${component.debianPackage} ` +
    `(${component.purpose}); under CI=true tests that need it fail instead of skipping.`
  );
}

/**
 * `describe` for tests that need `component`: the tests run when it is installed; when it is missing
 * they are skipped on a developer's machine, and under `CI=true` one failing test takes their place,
 * naming the package.
 */
export function describeWith(component: Component, name: string, body: () => void): void {
  describeNeeding(
    {
      present: commandPath(component) !== undefined,
      what: component.debianPackage,
      missing: missingMessage(component),
    },
    name,
    body,
  );
}

/** The same for a need that is not a program (a data folder): `what` names it, `missing` says how to get it. */
export function describeNeeding(
  need: { present: boolean; what: string; missing: string },
  name: string,
  body: () => void,
): void {
  if (need.present) describe(name, body);
  else if (isCI()) {
    describe(name, () => {
      it(`needs ${need.what}`, () => {
        throw new Error(need.missing);
      });
    });
  } else describe.skip(`${name} (skipped: ${need.missing})`, body);
}
