import { chmod, mkdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, expect, it } from "vitest";
import { detectSandboxCached, PROBE_CACHE_MAX_AGE_MS } from "../../src/sandbox/detect-cached.ts";
import { BUBBLEWRAP, commandPath, describeWith } from "../support/components.ts";
import { tempDir } from "../support/temp-dir.ts";

let dir: string;
let bin: string;
let stateDir: string;
let log: string;

/** A `bwrap` first on PATH that logs each run, then runs the real one (or fails, as a locked-down host does). */
async function wrapper(mode: "real" | "refuse"): Promise<void> {
  const real = commandPath(BUBBLEWRAP);
  const body =
    mode === "real" ? `exec ${real} "$@"` : `echo "bwrap: setting up uid map: Permission denied" >&2; exit 1`;
  await writeFile(join(bin, "bwrap"), `#!/bin/sh\necho run >> ${log}\n${body}\n`);
  await chmod(join(bin, "bwrap"), 0o755);
}

const probes = async () => (await readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
const detect = (now?: number) =>
  detectSandboxCached({ path: bin, stateDir, ...(now === undefined ? {} : { now: () => now }) });

beforeEach(async () => {
  dir = await tempDir("agentry-probe-cache-");
  bin = join(dir, "bin");
  stateDir = join(dir, "state", "agentry");
  log = join(dir, "runs.log");
  await mkdir(bin);
});

describeWith(BUBBLEWRAP, "detectSandboxCached", () => {
  it("probes once, then answers from the user's state folder without running bwrap", async () => {
    await wrapper("real");
    const first = await detect();
    expect(first).toMatchObject({ available: true, backend: { kind: "bwrap", path: join(bin, "bwrap") } });
    const runs = await probes();
    expect(runs).toBeGreaterThan(0);
    expect(await detect()).toEqual(first);
    expect(await probes()).toBe(runs);
  });

  it("probes again when the binary changed, when the entry is a day old, or when it cannot be read", async () => {
    await wrapper("real");
    await detect();
    let runs = await probes();
    const changed = new Date(Date.now() + 60_000);
    await utimes(join(bin, "bwrap"), changed, changed);
    await detect();
    expect(await probes()).toBeGreaterThan(runs);

    runs = await probes();
    await detect(Date.now() + PROBE_CACHE_MAX_AGE_MS + 1);
    expect(await probes()).toBeGreaterThan(runs);

    runs = await probes();
    await writeFile(join(stateDir, "sandbox-probe.json"), "{ not json");
    expect(await detect()).toMatchObject({ available: true });
    expect(await probes()).toBeGreaterThan(runs);
  });

  it("probes again, without failing, when the entry is JSON of another shape (null where an object goes)", async () => {
    await wrapper("real");
    await detect();
    const file = join(stateDir, "sandbox-probe.json");
    const kept = JSON.parse(await readFile(file, "utf8"));
    const shapes = [
      null,
      { ...kept, support: null },
      { ...kept, support: { ...kept.support, backend: null } },
    ];
    for (const shape of shapes) {
      const runs = await probes();
      await writeFile(file, JSON.stringify(shape));
      expect(await detect()).toMatchObject({ available: true, backend: { path: join(bin, "bwrap") } });
      expect(await probes()).toBeGreaterThan(runs);
    }
  });

  it("probes again when the entry was kept on another boot", async () => {
    await wrapper("real");
    await detect();
    const file = join(stateDir, "sandbox-probe.json");
    const kept = JSON.parse(await readFile(file, "utf8")) as { key: string };
    const key = JSON.parse(kept.key) as { boot: string };
    await writeFile(file, JSON.stringify({ ...kept, key: JSON.stringify({ ...key, boot: "another-boot" }) }));
    const runs = await probes();
    await detect();
    expect(await probes()).toBeGreaterThan(runs);
  });

  it("ignores a kept entry that names another program in bwrap's place, and probes again", async () => {
    await wrapper("real");
    await detect();
    const file = join(stateDir, "sandbox-probe.json");
    const kept = JSON.parse(await readFile(file, "utf8")) as { support: { backend: { path: string } } };
    const forged = {
      ...kept,
      support: { ...kept.support, backend: { ...kept.support.backend, path: "/bin/env" } },
    };
    await writeFile(file, JSON.stringify(forged));
    const runs = await probes();
    expect(await detect()).toMatchObject({ available: true, backend: { path: join(bin, "bwrap") } });
    expect(await probes()).toBeGreaterThan(runs);
  });

  it("never keeps a failed probe: the next run probes again", async () => {
    await wrapper("refuse");
    expect(await detect()).toMatchObject({ available: false });
    const runs = await probes();
    expect(await detect()).toMatchObject({ available: false });
    expect(await probes()).toBeGreaterThan(runs);
    await expect(readFile(join(stateDir, "sandbox-probe.json"))).rejects.toThrow();
  });

  it("does not trust a kept success for a bwrap that now refuses once its entry is stale", async () => {
    await wrapper("real");
    await detect();
    await wrapper("refuse"); // rewriting the file changes its identity as well
    expect(await detect()).toMatchObject({ available: false });
  });
});

describeWith(BUBBLEWRAP, "a kept entry that is not what agentry wrote", () => {
  interface Entry {
    key: string;
    at: number;
    support: { available: boolean; backend: { kind: string; path: string; disableUserns: boolean } };
  }
  /** Each turns the entry agentry wrote into one it did not write. */
  const damages: Array<[string, (kept: Entry) => unknown]> = [
    ["null", () => null],
    ["a number", () => 7],
    ["its key not a string", (kept) => ({ ...kept, key: 1 })],
    ["its time a string", (kept) => ({ ...kept, at: String(kept.at) })],
    ["its time in the future", (kept) => ({ ...kept, at: kept.at + 60_000 })],
    ["no support", (kept) => ({ ...kept, support: null })],
    ["support a string", (kept) => ({ ...kept, support: "yes" })],
    ["a failed probe", (kept) => ({ ...kept, support: { ...kept.support, available: false } })],
    ["no backend", (kept) => ({ ...kept, support: { available: true, backend: null } })],
    ["a backend that is a string", (kept) => ({ ...kept, support: { available: true, backend: "bwrap" } })],
    [
      "another kind",
      (kept) => ({
        ...kept,
        support: { ...kept.support, backend: { ...kept.support.backend, kind: "seatbelt" } },
      }),
    ],
    [
      "its path a number",
      (kept) => ({ ...kept, support: { ...kept.support, backend: { ...kept.support.backend, path: 1 } } }),
    ],
    [
      "disableUserns a string",
      (kept) => ({
        ...kept,
        support: { ...kept.support, backend: { ...kept.support.backend, disableUserns: "yes" } },
      }),
    ],
  ];

  it.each(damages)("(%s) is not used: bwrap is probed again", async (_, damage) => {
    await wrapper("real");
    const now = Date.now();
    const fresh = await detect(now);
    const file = join(stateDir, "sandbox-probe.json");
    await writeFile(file, JSON.stringify(damage(JSON.parse(await readFile(file, "utf8")) as Entry)));
    const runs = await probes();

    expect(await detect(now)).toEqual(fresh);
    expect(await probes()).toBeGreaterThan(runs);
  });

  it("what it keeps is readable by this user alone, in a folder of theirs", async () => {
    await wrapper("real");
    await detect();
    expect((await stat(join(stateDir, "sandbox-probe.json"))).mode & 0o777).toBe(0o600);
    expect((await stat(stateDir)).mode & 0o777).toBe(0o700);
  });

  it("an entry is used from the moment it is kept until it is a day old, not at a day", async () => {
    await wrapper("real");
    const kept = Date.now();
    await detect(kept);
    const runs = await probes();
    await detect(kept);
    await detect(kept + PROBE_CACHE_MAX_AGE_MS - 1);
    expect(await probes()).toBe(runs);
    await detect(kept + PROBE_CACHE_MAX_AGE_MS);
    expect(await probes()).toBeGreaterThan(runs);
  });

  it("is never used for another platform, nor when bwrap is gone from the PATH", async () => {
    await wrapper("real");
    await detect();
    expect(await detectSandboxCached({ path: bin, stateDir, platform: "win32" })).toMatchObject({
      available: false,
      reason: "there is no OS sandbox for win32",
    });
    expect(await detectSandboxCached({ path: join(dir, "state"), stateDir })).toMatchObject({
      available: false,
      reason: "bubblewrap (bwrap) is not installed",
    });
  });

  it("a bwrap found after empty PATH entries is the one probed and kept", async () => {
    await wrapper("real");
    const found = await detectSandboxCached({ path: `::${bin}`, stateDir });
    expect(found).toMatchObject({ available: true, backend: { path: join(bin, "bwrap") } });
    const runs = await probes();
    expect(await detectSandboxCached({ path: `::${bin}`, stateDir })).toEqual(found);
    expect(await probes()).toBe(runs);
  });
});
