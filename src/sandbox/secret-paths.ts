import { join } from "node:path";

/**
 * Where keys and credentials live outside a project, relative to the home folder: commands never
 * read these (a model asked to "check the setup" must not print `~/.ssh/id_ed25519`). Config
 * (`sandbox.denyRead`) and `read`/`external_directory` deny rules add more.
 */
const HOME_SECRETS: readonly string[] = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".kube",
  ".docker/config.json",
  ".netrc",
  ".git-credentials",
  ".config/git/credentials",
  ".config/gh",
  ".config/hub",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".gem/credentials",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".terraform.d/credentials.tfrc.json",
  ".vault-token",
  ".pgpass",
  ".my.cnf",
  ".password-store",
  ".local/share/keyrings",
  ".config/agentry",
  ".agentry",
  ".claude",
  ".claude.json",
  ".codex",
  ".config/opencode",
  ".local/share/opencode",
  ".bash_history",
  ".zsh_history",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
];

const SYSTEM_SECRETS: readonly string[] = [
  "/etc/shadow",
  "/etc/shadow-",
  "/etc/gshadow",
  "/etc/gshadow-",
  "/etc/ssh",
  "/etc/sudoers",
  "/etc/sudoers.d",
];

/** Absolute paths of the well-known secret places for a user whose home folder is `home`. */
export function secretPaths(home: string): string[] {
  return [...HOME_SECRETS.map((path) => join(home, path)), ...SYSTEM_SECRETS];
}
