import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { READ_ONLY_BASH_RULES } from "../../src/permissions/read-only-bash-rules.ts";
import type { Ruleset } from "../../src/permissions/types.ts";
import { DEFAULT_SANDBOX_SETTINGS, type SandboxBackend } from "../../src/sandbox/policy.ts";
import { policyForAgent, policyForChild } from "../../src/sandbox/policy-for-agent.ts";
import { sandboxFixture } from "./support.ts";

const backend: SandboxBackend = { kind: "bwrap", path: "/usr/bin/bwrap", disableUserns: true };
const readOnlyAgent: Ruleset = [
  ...DEFAULT_RULES,
  ...READ_ONLY_BASH_RULES,
  { permission: "edit", pattern: "*", action: "deny" },
];

describe("policyForAgent", () => {
  it("a writing agent may write its workspace, but not agent settings; .git only through its view", async () => {
    const fx = await sandboxFixture();
    const policy = await policyForAgent({
      backend,
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: fx.workspace,
      settings: DEFAULT_SANDBOX_SETTINGS,
      home: fx.home,
    });
    expect(policy.ceiling).toBe("workspace-write");
    expect(policy.writableRoots).toEqual([fx.workspace]);
    for (const part of [".agentry", ".claude", ".mcp.json", "agentry.json"]) {
      expect(policy.readOnlyPaths).toContain(join(fx.workspace, part));
    }
    // git needs its objects, refs and index to commit: the rest of .git is read-only (git-dir-view.ts).
    expect(policy.gitDirs).toEqual([join(fx.workspace, ".git")]);
    expect(policy.readOnlyPaths).not.toContain(join(fx.workspace, ".git"));
    expect(policy.hiddenPaths).toContain(join(fx.home, ".ssh"));
    expect(policy.allowedHosts).toEqual([]);
  });

  it("a linked worktree commits through views of both git folders; a planted commondir makes both read-only", async () => {
    const fx = await sandboxFixture();
    const worktree = join(fx.base, "wt");
    execFileSync("git", ["worktree", "add", "-q", "-b", "child", worktree], { cwd: fx.workspace });
    const input = {
      backend,
      rules: DEFAULT_RULES,
      mode: "accept-edits" as const,
      workspace: worktree,
      settings: DEFAULT_SANDBOX_SETTINGS,
      home: fx.home,
    };
    const common = join(fx.workspace, ".git");
    const own = join(common, "worktrees", "wt");
    const policy = await policyForAgent(input);
    expect(policy.gitDirs).toEqual([common, own]);
    expect(policy.writableRoots).toEqual([worktree]);
    expect(policy.readOnlyPaths).toContain(join(worktree, ".git"));

    await mkdir(join(fx.base, "ev"));
    await writeFile(join(own, "commondir"), `${join(fx.base, "ev")}\n`);
    const planted = await policyForAgent(input);
    expect(planted.gitDirs).toEqual([]);
    expect(planted.readOnlyPaths).toContain(join(worktree, ".git"));
    expect(planted.readableRoots).toEqual(expect.arrayContaining([own, join(fx.base, "ev")]));
  });

  it("a workspace in a sub-folder of a checkout may not commit, nor make a .git of its own", async () => {
    const fx = await sandboxFixture();
    const policy = await policyForAgent({
      backend,
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: join(fx.workspace, "src"),
      settings: DEFAULT_SANDBOX_SETTINGS,
      home: fx.home,
    });
    expect(policy.gitDirs).toEqual([]);
    expect(policy.readableRoots).toContain(fx.workspace);
    expect(policy.readOnlyPaths).toContain(join(fx.workspace, "src", ".git"));
  });

  it("agents that cannot edit, and plan mode, get a read-only workspace", async () => {
    const fx = await sandboxFixture();
    const input = { backend, workspace: fx.workspace, settings: DEFAULT_SANDBOX_SETTINGS, home: fx.home };
    expect((await policyForAgent({ ...input, rules: readOnlyAgent, mode: "bypass" })).ceiling).toBe(
      "read-only",
    );
    expect((await policyForAgent({ ...input, rules: DEFAULT_RULES, mode: "plan" })).ceiling).toBe(
      "read-only",
    );
    const policy = await policyForAgent({ ...input, rules: readOnlyAgent, mode: "default" });
    expect(policy.writableRoots).toEqual([]);
  });

  it("bypass lifts the protected paths but keeps what edit rules deny", async () => {
    const fx = await sandboxFixture();
    const rules: Ruleset = [...DEFAULT_RULES, { permission: "edit", pattern: "vendor/**", action: "deny" }];
    const policy = await policyForAgent({
      backend,
      rules,
      mode: "bypass",
      workspace: fx.workspace,
      settings: DEFAULT_SANDBOX_SETTINGS,
      home: fx.home,
    });
    expect(policy.readOnlyPaths).toEqual([join(fx.workspace, "vendor")]);
  });

  it("a child is never wider than its parent", async () => {
    const fx = await sandboxFixture();
    const settings = {
      ...DEFAULT_SANDBOX_SETTINGS,
      allowedHosts: ["a.example", "b.example"],
      denyRead: ["~/notes"],
    };
    const parent = await policyForAgent({
      backend,
      rules: readOnlyAgent,
      mode: "default",
      workspace: fx.workspace,
      settings: { ...settings, allowedHosts: ["a.example"] },
      home: fx.home,
    });
    const child = await policyForChild({
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: fx.workspace,
      parent,
    });
    expect(child.ceiling).toBe("read-only");
    expect(child.allowedHosts).toEqual(["a.example"]);
    expect(child.hiddenPaths).toContain(join(fx.home, "notes"));
    expect(child.hiddenPaths).toEqual(expect.arrayContaining(parent.hiddenPaths));
  });

  it("paths that read or external_directory rules deny are hidden from commands", async () => {
    const fx = await sandboxFixture();
    const rules: Ruleset = [
      ...DEFAULT_RULES,
      { permission: "external_directory", pattern: "/srv/private/*", action: "deny" },
      { permission: "read", pattern: "~/work-notes/**", action: "deny" },
    ];
    const policy = await policyForAgent({
      backend,
      rules,
      mode: "default",
      workspace: fx.workspace,
      settings: DEFAULT_SANDBOX_SETTINGS,
      home: fx.home,
    });
    expect(policy.hiddenPaths).toEqual(expect.arrayContaining(["/srv/private", join(fx.home, "work-notes")]));
    expect(policy.readRules.every((rule) => rule.permission === "read" || rule.permission === "*")).toBe(
      true,
    );
  });
});

describe("a definition's allowedHosts", () => {
  it("narrows the parent's hosts and never widens them", async () => {
    const fx = await sandboxFixture();
    const parent = await policyForAgent({
      backend,
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: fx.workspace,
      settings: { ...DEFAULT_SANDBOX_SETTINGS, allowedHosts: ["registry.npmjs.org", "*.github.com"] },
      home: fx.home,
    });
    const child = (allowedHosts: string[]) =>
      policyForChild({
        rules: DEFAULT_RULES,
        mode: "accept-edits",
        workspace: fx.workspace,
        parent,
        allowedHosts,
      });
    expect((await child(["api.github.com", "evil.example"])).allowedHosts).toEqual(["api.github.com"]);
    expect((await child([])).allowedHosts).toEqual([]);
    expect((await child(["*.github.com", "registry.npmjs.org"])).allowedHosts).toEqual([
      "*.github.com",
      "registry.npmjs.org",
    ]);
    expect((await child(["*.npmjs.org"])).allowedHosts).toEqual(["registry.npmjs.org"]);
    expect(
      (await policyForChild({ rules: DEFAULT_RULES, mode: "accept-edits", workspace: fx.workspace, parent }))
        .allowedHosts,
    ).toEqual(parent.allowedHosts);
  });
});

describe("the git repository around a workspace", () => {
  it("a linked worktree writes its own files and commits through views of its two git folders — nothing else of the repository", async () => {
    const fx = await sandboxFixture();
    const worktree = join(fx.base, "wt");
    execFileSync("git", ["worktree", "add", "-q", "-b", "side", worktree], { cwd: fx.workspace });
    const common = join(fx.workspace, ".git");
    const own = join(common, "worktrees", "wt");

    const policy = await policyForAgent({
      backend,
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: worktree,
      settings: DEFAULT_SANDBOX_SETTINGS,
      home: fx.home,
    });

    // The git folders are not writable as they are: commits go through views (objects, refs, logs and
    // copies of index and HEAD), so config.worktree, commondir and hooks stay out of reach.
    expect(policy.writableRoots).toEqual([worktree]);
    expect(policy.gitDirs).toEqual([common, own]);
    expect(policy.readableRoots).toEqual([common, own]);
    // Its .git pointer is read-only, so it cannot be pointed at another repository.
    expect(policy.readOnlyPaths).toEqual(
      expect.arrayContaining([join(worktree, ".git"), join(worktree, ".claude")]),
    );
    for (const path of policy.readOnlyPaths)
      expect(policy.writableRoots.some((root) => path.startsWith(`${root}/`))).toBe(true);
  });

  it("a workspace inside a repository reads the repository around it; one outside any repository reads nothing more", async () => {
    const fx = await sandboxFixture();
    const input = {
      backend,
      rules: DEFAULT_RULES,
      mode: "accept-edits" as const,
      settings: DEFAULT_SANDBOX_SETTINGS,
    };
    const inside = await policyForAgent({ ...input, workspace: join(fx.workspace, "src"), home: fx.home });
    expect(inside.readableRoots).toEqual([fx.workspace, join(fx.workspace, ".git")]);
    // The repository's own git folder is readable, not writable, and a sub-folder may not commit.
    expect(inside.writableRoots).toEqual([join(fx.workspace, "src")]);
    expect(inside.gitDirs).toEqual([]);
    // At the top, its .git lies in the workspace (nothing more to read) and commits go through a view.
    const top = await policyForAgent({ ...input, workspace: fx.workspace, home: fx.home });
    expect(top.readableRoots).toEqual([]);
    expect(top.gitDirs).toEqual([join(fx.workspace, ".git")]);

    const outside = await policyForAgent({ ...input, workspace: fx.outside, home: fx.home });
    expect(outside.readableRoots).toEqual([]);
    // Without a repository, `.git` is kept read-only too: a command cannot make one that git would run.
    expect(outside.readOnlyPaths).toContain(join(fx.outside, ".git"));
  });
});

describe("a child's policy", () => {
  it("a writing parent's child writes where its parent may, its config's extra folders included", async () => {
    const fx = await sandboxFixture();
    const parent = await policyForAgent({
      backend,
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: fx.workspace,
      settings: { ...DEFAULT_SANDBOX_SETTINGS, allowWrite: ["~/cache"] },
      home: fx.home,
    });
    const child = await policyForChild({
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: fx.workspace,
      parent,
    });

    expect(child.ceiling).toBe("workspace-write");
    expect(child.writableRoots).toEqual([fx.workspace, join(fx.home, "cache")]);
    expect(child.extraWritable).toEqual([join(fx.home, "cache")]);
    expect(child.readOnlyPaths).toEqual(parent.readOnlyPaths);
  });
});

describe("hidden paths", () => {
  it("come from read and external_directory rules that deny or ask for an absolute or home path, and from denyRead", async () => {
    const fx = await sandboxFixture();
    const rules: Ruleset = [
      ...DEFAULT_RULES,
      { permission: "read", pattern: "/srv/open/**", action: "allow" },
      { permission: "read", pattern: "/srv/asked/**", action: "ask" },
      { permission: "edit", pattern: "/srv/edited/**", action: "deny" },
      { permission: "read", pattern: "relative/**", action: "deny" },
      { permission: "read", pattern: "/**", action: "deny" },
    ];
    const policy = await policyForAgent({
      backend,
      rules,
      mode: "default",
      workspace: fx.workspace,
      settings: { ...DEFAULT_SANDBOX_SETTINGS, denyRead: ["~", "notes"] },
      home: fx.home,
    });

    expect(policy.hiddenPaths).toEqual(
      expect.arrayContaining(["/srv/asked", fx.home, join(fx.workspace, "notes")]),
    );
    for (const shown of ["/srv/open", "/srv/edited", "/relative", "/", "/undefined"])
      expect(policy.hiddenPaths).not.toContain(shown);
  });
});

describe("edges of a policy's paths", () => {
  const settings = DEFAULT_SANDBOX_SETTINGS;

  it("bypass in a linked worktree writes both its git folders; bypass outside any repository writes just the workspace", async () => {
    const fx = await sandboxFixture();
    const worktree = join(fx.base, "wt");
    execFileSync("git", ["worktree", "add", "-q", "-b", "child", worktree], { cwd: fx.workspace });
    const common = join(fx.workspace, ".git");
    const linked = await policyForAgent({
      backend,
      rules: DEFAULT_RULES,
      mode: "bypass",
      workspace: worktree,
      settings,
      home: fx.home,
    });
    expect(linked.writableRoots).toEqual([
      worktree,
      join(common, "worktrees", "wt"),
      join(common, "objects"),
      join(common, "refs"),
      join(common, "logs"),
    ]);
    expect(linked.gitDirs).toEqual([]);

    const plain = await policyForAgent({
      backend,
      rules: DEFAULT_RULES,
      mode: "bypass",
      workspace: fx.outside,
      settings,
      home: fx.home,
    });
    expect(plain.writableRoots).toEqual([fx.outside]);
    expect(plain.readOnlyPaths).toEqual([]);
  });

  it("a folder the config makes writable leaves the workspace's protected paths read-only", async () => {
    const fx = await sandboxFixture();
    const policy = await policyForAgent({
      backend,
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: fx.workspace,
      settings: { ...settings, allowWrite: ["~/cache"] },
      home: fx.home,
    });
    expect(policy.writableRoots).toEqual([fx.workspace, join(fx.home, "cache")]);
    expect(policy.readOnlyPaths).toContain(join(fx.workspace, ".agentry"));
  });

  it("a child whose workspace is a folder its parent may not edit gets it read-only", async () => {
    const fx = await sandboxFixture();
    const vendor = join(fx.workspace, "vendor");
    await mkdir(vendor);
    const parent = await policyForAgent({
      backend,
      rules: [...DEFAULT_RULES, { permission: "edit", pattern: "vendor/**", action: "deny" }],
      mode: "accept-edits",
      workspace: fx.workspace,
      settings,
      home: fx.home,
    });
    const child = await policyForChild({
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: vendor,
      parent,
    });
    expect(child.writableRoots).toEqual([vendor]);
    expect(child.readOnlyPaths).toContain(vendor);
  });

  it("a repository beside the workspace whose name starts like it is still outside it (read-only, visible)", async () => {
    const fx = await sandboxFixture();
    // `ws/.git` starts with the text of `w`, the worktree's path, but is not under it.
    const worktree = join(fx.base, "w");
    execFileSync("git", ["worktree", "add", "-q", "-b", "child", worktree], { cwd: fx.workspace });
    const policy = await policyForAgent({
      backend,
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: worktree,
      settings,
      home: fx.home,
    });
    const common = join(fx.workspace, ".git");
    expect(policy.readableRoots).toEqual([common, join(common, "worktrees", "w")]);
  });
});
