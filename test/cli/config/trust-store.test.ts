import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import {
  listedAsTrusted,
  readTrustedFolders,
  revokeTrust,
  trustFilePath,
  trustFolder,
  wideningHash,
} from "../../../src/cli/config/trust-store.ts";
import type { Withheld } from "../../../src/cli/config/withheld.ts";
import { tempDir } from "../../support/temp-dir.ts";

const item = (setting: string, value: unknown, kind: Withheld["kind"] = "untrusted"): Withheld => ({
  source: "agentry.json",
  setting,
  kind,
  value,
});

it("the hash covers what trust would let apply, in any order and key order, and nothing else", () => {
  const a = item('MCP server "a"', { command: "x", args: ["1"] });
  const b = item("permission bash 'make *' allow", { permission: "bash" });
  expect(wideningHash([a, b])).toBe(wideningHash([b, { ...a, value: { args: ["1"], command: "x" } }]));
  expect(wideningHash([a, b])).not.toBe(wideningHash([a]));
  expect(wideningHash([a])).not.toBe(wideningHash([{ ...a, value: { command: "y", args: ["1"] } }]));
  // What never applies does not change what trust means.
  expect(wideningHash([a])).toBe(wideningHash([a, item("providers.anthropic", { baseUrl: "x" }, "never")]));
});

it("records, lists and revokes trusted folders in the user's state, atomically", async () => {
  const state = await tempDir("agentry-trust-");
  const env = { XDG_STATE_HOME: state };
  expect(await readTrustedFolders(env)).toEqual({ folders: [] });
  await trustFolder(env, "/work/a", "h1", new Date("2026-01-01T00:00:00Z"));
  await trustFolder(env, "/work/b", "h2");
  await trustFolder(env, "/work/a", "h3");
  const { folders } = await readTrustedFolders(env);
  expect(folders.map((entry) => [entry.path, entry.hash])).toEqual([
    ["/work/b", "h2"],
    ["/work/a", "h3"],
  ]);
  expect(trustFilePath(env)).toBe(join(state, "agentry", "trusted-folders.json"));
  expect(await revokeTrust(env, "/work/a")).toBe(true);
  expect(await revokeTrust(env, "/work/a")).toBe(false);
  expect(JSON.parse(await readFile(trustFilePath(env), "utf8")).folders).toEqual({
    "/work/b": expect.objectContaining({ hash: "h2" }),
  });
});

it("a damaged trust file trusts nothing, and says so", async () => {
  const state = await tempDir("agentry-trust-");
  const env = { XDG_STATE_HOME: state };
  await mkdir(join(state, "agentry"), { recursive: true });
  await writeFile(trustFilePath(env), "{not json");
  const read = await readTrustedFolders(env);
  expect(read.folders).toEqual([]);
  expect(read.problem).toMatch(/no folder is trusted until it is fixed or removed/);
  await expect(trustFolder(env, "/work/a", "h")).rejects.toThrow(/cannot be read/);
});

it("trustedFolders of the user's config cover a folder and its subfolders, never a look-alike", () => {
  const env = { HOME: "/home/u" };
  expect(listedAsTrusted("/home/u/src/app", ["~/src"], env)).toBe("~/src");
  expect(listedAsTrusted("/home/u/src", ["~/src/"], env)).toBe("~/src/");
  expect(listedAsTrusted("/home/u/srcs/app", ["~/src"], env)).toBeUndefined();
  expect(listedAsTrusted("/home/u/src", ["src"], env)).toBeUndefined();
});
