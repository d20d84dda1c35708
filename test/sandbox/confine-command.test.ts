import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import type { PermissionMode } from "../../src/permissions/modes.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { DEFAULT_COMMAND_ENV } from "../../src/sandbox/command-env.ts";
import { confineCommand } from "../../src/sandbox/confine-command.ts";
import type { NetworkGateway } from "../../src/sandbox/network-gateway.ts";
import {
  DEFAULT_SANDBOX_SETTINGS,
  type SandboxBackend,
  type SandboxPolicy,
  type SandboxProfile,
  type SandboxSettings,
} from "../../src/sandbox/policy.ts";
import { policyForAgent } from "../../src/sandbox/policy-for-agent.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import { tempDir } from "../support/temp-dir.ts";
import { type SandboxFixture, sandboxBackend, sandboxFixture } from "./support.ts";

const found = await sandboxBackend();
const backend = found.backend as SandboxBackend;

interface Run {
  rules?: Ruleset;
  mode?: PermissionMode;
  profile?: SandboxProfile;
  settings?: Partial<SandboxSettings>;
}

async function policyOf(fx: SandboxFixture, options: Run = {}): Promise<SandboxPolicy> {
  return policyForAgent({
    backend,
    rules: options.rules ?? DEFAULT_RULES,
    mode: options.mode ?? "accept-edits",
    workspace: fx.workspace,
    settings: { ...DEFAULT_SANDBOX_SETTINGS, ...options.settings },
    home: fx.home,
  });
}

async function run(fx: SandboxFixture, command: string, options: Run = {}) {
  return runUnder(fx, command, await policyOf(fx, options), options.profile);
}

/** Runs `command` under a policy made beforehand (an agent's is made once, for all its commands). */
async function runUnder(
  fx: SandboxFixture,
  command: string,
  policy: SandboxPolicy,
  profile: SandboxProfile = "workspace-write",
) {
  return nodeOperations.exec(command, {
    cwd: fx.workspace,
    signal: new AbortController().signal,
    timeoutMs: 20_000,
    inheritEnv: DEFAULT_COMMAND_ENV,
    env: { HOME: fx.home },
    sandbox: { policy, profile },
  });
}

describe.skipIf(found.skip !== undefined)(`a confined command ${found.skip ?? ""}`, () => {
  it("of an agent that cannot edit runs read-only, whatever profile is asked for", async () => {
    const fx = await sandboxFixture();
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "edit", pattern: "*", action: "deny" }];
    const policy = await policyOf(fx, { rules });

    const spawn = await confineCommand(policy, "workspace-write", ["true"], fx.workspace);
    expect(spawn.profile).toBe("read-only");
    const result = await run(fx, "echo x > src/new.ts; echo done", { rules });
    expect(result.output).toContain("done");
    expect(existsSync(join(fx.workspace, "src", "new.ts"))).toBe(false);
  });

  it("sees none of the workspace when the read rules keep back too many files to list", async () => {
    const fx = await sandboxFixture();
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "read", pattern: "data/*", action: "deny" }];
    await mkdir(join(fx.workspace, "data"));
    for (let index = 0; index <= 2_000; index++) await writeFile(join(fx.workspace, "data", `${index}`), "");
    const result = await run(fx, "cat src/a.ts; ls data | wc -l", { rules });
    expect(result.output).not.toContain("export const a");
    expect(result.output.trim().split("\n").at(-1)).toBe("0");
  });

  it("writes a folder its config allows that does not exist yet without failing, and the private /tmp", async () => {
    const fx = await sandboxFixture();
    const result = await run(fx, 'echo "tmp is $TMPDIR"; echo in > src/b.ts && cat src/b.ts', {
      settings: { allowWrite: ["~/not-made-yet"] },
    });
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain("tmp is /tmp");
    expect(result.output).toContain("in");
  });

  it("gets a private, empty /tmp, /var/tmp and /dev/shm of its own", async () => {
    const fx = await sandboxFixture();
    const mark = `agentry-private-${process.pid}-${Date.now()}`;
    const shared = ["/tmp", "/var/tmp", "/dev/shm"].filter((dir) => existsSync(dir));
    for (const dir of shared) await writeFile(join(dir, `${mark}-host`), "host");
    try {
      const result = await run(
        fx,
        shared
          .map((dir) => `ls ${dir}/${mark}-host; echo mine > ${dir}/${mark}-cmd && cat ${dir}/${mark}-cmd`)
          .join("; "),
      );
      expect(result.output).not.toMatch(/^\/.*-host$/m);
      expect(result.output.match(/^mine$/gm)?.length).toBe(shared.length);
      for (const dir of shared) expect(existsSync(join(dir, `${mark}-cmd`))).toBe(false);
    } finally {
      for (const dir of shared) await rm(join(dir, `${mark}-host`), { force: true });
    }
  });

  it("gets no proxy settings when no host is allowed", async () => {
    const fx = await sandboxFixture();
    const result = await run(fx, "env | grep -i _proxy; echo end");
    expect(result.output.trim()).toBe("end");
  });

  it("runs the tools of a PATH folder under /tmp (a checkout or CI clone there), even when some are missing", async () => {
    const fx = await sandboxFixture();
    const bin = await tempDir("agentry-tools-");
    await writeFile(join(bin, "my-tool"), "#!/bin/sh\necho my tool ran\n");
    await chmod(join(bin, "my-tool"), 0o755);
    const saved = process.env.PATH;
    process.env.PATH = [join(bin, "missing"), bin, saved].join(delimiter);
    try {
      const result = await run(fx, "my-tool");
      expect(result.output).toContain("my tool ran");
    } finally {
      process.env.PATH = saved;
    }
  });

  it("runs when agentry's PATH has relative folders (., src): only absolute folders under /tmp are shown", async () => {
    const fx = await sandboxFixture();
    const saved = process.env.PATH;
    process.env.PATH = [".", "src", saved].join(delimiter);
    try {
      const result = await run(fx, "echo ran; echo x > probe && cat probe");
      expect(result.output).toBe("ran\nx\n");
      expect(result.exitCode).toBe(0);
    } finally {
      process.env.PATH = saved;
    }
  });

  it("cannot keep a protected folder it made under folders that did not exist: the first of them is removed", async () => {
    const fx = await sandboxFixture();
    const rules: Ruleset = [
      ...DEFAULT_RULES,
      { permission: "edit", pattern: "generated/out/**", action: "deny" },
    ];
    const result = await run(fx, "mkdir -p generated/out && echo x > generated/out/f && echo made", {
      rules,
    });
    expect(result.output).toContain("made");
    expect(result.removedPaths).toEqual(["generated"]);
    expect(existsSync(join(fx.workspace, "generated"))).toBe(false);
  });

  it("keeps every git folder read-only, and still runs, when one of them cannot be staged", async () => {
    const fx = await sandboxFixture();
    const policy = await policyOf(fx);
    // A git folder that cannot be listed (here: a file in its place) cannot get a view.
    const broken: SandboxPolicy = {
      ...policy,
      gitDirs: [...policy.gitDirs, join(fx.workspace, "src", "a.ts")],
    };
    const result = await runUnder(
      fx,
      "echo x > .git/objects/probe; echo y > src/a.ts; git -c user.email=t@t -c user.name=t commit -qam c; echo ran",
      broken,
    );
    expect(result.output).toContain("ran");
    expect(result.exitCode).toBe(0);
    expect(existsSync(join(fx.workspace, ".git", "objects", "probe"))).toBe(false);
    expect(await readFile(join(fx.workspace, "src", "a.ts"), "utf8")).toContain("export const a");
  });

  it("cannot make a .git of its own where the repository's was removed after its policy was made", async () => {
    const fx = await sandboxFixture();
    const policy = await policyOf(fx);
    await rm(join(fx.workspace, ".git"), { recursive: true, force: true });
    const result = await runUnder(fx, "git init -q && echo made", policy);
    expect(result.output).toContain("made");
    expect(result.removedPaths).toEqual([".git"]);
    expect(existsSync(join(fx.workspace, ".git"))).toBe(false);
  });

  it("runs where a denied folder and a denied folder in it are both hidden", async () => {
    const fx = await sandboxFixture();
    await mkdir(join(fx.home, "notes", "sub"), { recursive: true });
    await writeFile(join(fx.home, "notes", "sub", "a.txt"), "notes-secret-31b7");
    const result = await run(fx, 'cat "$HOME/notes/sub/a.txt"; ls "$HOME/notes"; echo ran', {
      settings: { denyRead: ["~/notes", "~/notes/sub"] },
    });
    expect(result.output).toContain("ran");
    expect(result.output).not.toContain("notes-secret-31b7");
    expect(result.output).not.toMatch(/^sub$/m);
  });

  it("fails with the proxy's error when the proxy for its allowed hosts cannot start", async () => {
    const fx = await sandboxFixture();
    const policy = await policyOf(fx, { settings: { allowedHosts: ["example.com"] } });
    const network: NetworkGateway = {
      proxyFor: () => Promise.reject(new Error("proxy cannot start")),
      close: async () => {},
    };
    await expect(
      confineCommand(policy, "workspace-write", ["true"], fx.workspace, { network }),
    ).rejects.toThrow("proxy cannot start");
  });

  it("on macOS gets a private temp folder of its own, removed after it", async () => {
    const fx = await sandboxFixture();
    const policy: SandboxPolicy = {
      ...(await policyOf(fx)),
      backend: { kind: "seatbelt", path: "/usr/bin/sandbox-exec" },
    };
    const spawn = await confineCommand(policy, "workspace-write", ["true"], fx.workspace);
    const privateTmp = spawn.env.TMPDIR as string;
    expect(spawn.file).toBe("/usr/bin/sandbox-exec");
    expect(spawn.args.at(-1)).toBe("true");
    expect(existsSync(privateTmp)).toBe(true);
    await writeFile(join(privateTmp, "left-behind"), "x");
    await mkdir(join(privateTmp, "a-folder"));
    expect(await spawn.afterExit()).toEqual([]);
    expect(existsSync(privateTmp)).toBe(false);
    expect(await readFile(join(fx.workspace, "src", "a.ts"), "utf8")).toContain("export const a");
  });
});
