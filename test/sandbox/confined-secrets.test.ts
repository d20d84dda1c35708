import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../../src/permissions/defaults.ts";
import { DEFAULT_COMMAND_ENV } from "../../src/sandbox/command-env.ts";
import { DEFAULT_SANDBOX_SETTINGS, type SandboxBackend } from "../../src/sandbox/policy.ts";
import { policyForAgent } from "../../src/sandbox/policy-for-agent.ts";
import { nodeOperations } from "../../src/tools/node-operations.ts";
import { sandboxBackend, sandboxFixture } from "./support.ts";

const found = await sandboxBackend();
const backend = found.backend as SandboxBackend;

/** Where keys, tokens and histories live in a home folder, by what keeps them there. */
const HOME_SECRETS: Record<string, string[]> = {
  "ssh and gpg": [".ssh/id_ed25519", ".gnupg/private-keys-v1.d/key"],
  clouds: [".aws/credentials", ".azure/accessTokens.json", ".config/gcloud/credentials.db", ".kube/config"],
  "containers and git": [
    ".docker/config.json",
    ".netrc",
    ".git-credentials",
    ".config/git/credentials",
    ".config/gh/hosts.yml",
    ".config/hub",
  ],
  "package registries": [
    ".npmrc",
    ".yarnrc.yml",
    ".pypirc",
    ".gem/credentials",
    ".cargo/credentials",
    ".cargo/credentials.toml",
  ],
  "other tools' secrets": [
    ".terraform.d/credentials.tfrc.json",
    ".vault-token",
    ".pgpass",
    ".my.cnf",
    ".password-store/x.gpg",
    ".local/share/keyrings/login.keyring",
  ],
  "agents' own settings": [
    ".config/agentry/config.json",
    ".agentry/state.json",
    ".claude/settings.json",
    ".claude.json",
    ".codex/auth.json",
    ".config/opencode/opencode.json",
    ".local/share/opencode/auth.json",
  ],
  "shell histories": [
    ".bash_history",
    ".zsh_history",
    ".python_history",
    ".node_repl_history",
    ".psql_history",
    ".mysql_history",
  ],
};

describe.skipIf(found.skip !== undefined)(`commands in the OS sandbox ${found.skip ?? ""}`, () => {
  it.each(Object.entries(HOME_SECRETS))("cannot read the home folder's %s", async (_, places) => {
    const fx = await sandboxFixture();
    for (const [index, place] of places.entries()) {
      await mkdir(dirname(join(fx.home, place)), { recursive: true });
      await writeFile(join(fx.home, place), `secret-${index}-7c1e\n`);
    }
    await writeFile(join(fx.home, "notes.txt"), "readable-3b9d\n");
    // The fixture's home lies under /tmp, which a command sees as an empty folder of its own; a real
    // home does not. Naming it in allowWrite shows it to the command, secrets and all, but for the masks.
    const policy = await policyForAgent({
      backend,
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: fx.workspace,
      settings: { ...DEFAULT_SANDBOX_SETTINGS, allowWrite: [fx.home] },
      home: fx.home,
    });

    const result = await nodeOperations.exec(
      ["notes.txt", ...places].map((place) => `cat ${join(fx.home, place)}`).join("; "),
      {
        cwd: fx.workspace,
        signal: new AbortController().signal,
        timeoutMs: 20_000,
        inheritEnv: DEFAULT_COMMAND_ENV,
        env: { HOME: fx.home },
        sandbox: { policy, profile: "workspace-write" },
      },
    );

    expect(result.output).toContain("readable-3b9d");
    expect(result.output).not.toContain("7c1e");
  });

  it("cannot read the machine's shadow files, ssh host keys or sudoers", async () => {
    const fx = await sandboxFixture();
    const policy = await policyForAgent({
      backend,
      rules: DEFAULT_RULES,
      mode: "accept-edits",
      workspace: fx.workspace,
      settings: DEFAULT_SANDBOX_SETTINGS,
      home: fx.home,
    });
    const places = [
      "/etc/shadow",
      "/etc/shadow-",
      "/etc/gshadow",
      "/etc/gshadow-",
      "/etc/ssh",
      "/etc/sudoers",
      "/etc/sudoers.d",
    ];
    expect(policy.hiddenPaths).toEqual(expect.arrayContaining(places));
    // Those this machine has show up empty to a command: no content, no entries.
    const here = places.filter((place) => existsSync(place));
    expect(here.length).toBeGreaterThan(0);
    const result = await nodeOperations.exec(
      here
        .map(
          (place) =>
            `[ -n "$(if [ -d ${place} ]; then ls -A ${place}; else cat ${place}; fi 2>/dev/null)" ] && echo "read ${place}"`,
        )
        .join("; "),
      {
        cwd: fx.workspace,
        signal: new AbortController().signal,
        timeoutMs: 20_000,
        inheritEnv: DEFAULT_COMMAND_ENV,
        env: { HOME: fx.home },
        sandbox: { policy, profile: "workspace-write" },
      },
    );
    expect(result.output).not.toMatch(/read \/etc/);
  });
});
