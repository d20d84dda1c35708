/**
 * The environment variables a command inherits when config names none: what shells, compilers and
 * package managers need to find themselves and format output — never keys. Config
 * (`sandbox.env`) adds names; `LC_*`-style entries are prefixes.
 */
export const DEFAULT_COMMAND_ENV: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "LC_*",
  "TERM",
  "COLORTERM",
  "NO_COLOR",
  "FORCE_COLOR",
  "TZ",
  "TMPDIR",
  "EDITOR",
  "VISUAL",
  "CI",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_RUNTIME_DIR",
  "NODE_ENV",
  "NODE_OPTIONS",
  "NODE_PATH",
  "NVM_DIR",
  "NVM_BIN",
  "VIRTUAL_ENV",
  "CONDA_PREFIX",
  "PYENV_ROOT",
  "PYENV_VERSION",
  "PYTHONPATH",
  "GOPATH",
  "GOROOT",
  "GOFLAGS",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "JAVA_HOME",
  "MAVEN_HOME",
  "GRADLE_USER_HOME",
  "DOTNET_ROOT",
  "GEM_HOME",
  "GEM_PATH",
  "RBENV_ROOT",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "npm_config_cache",
];

/**
 * Names that look like secrets are left out even when an allowlist entry would match them, unless the
 * entry names them exactly (`sandbox.env: ["GITHUB_TOKEN"]`): `LC_*` must not bring `LC_API_KEY`.
 */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE/i;

/** The variables of `env` whose names the allowlist admits (exact names, or prefixes ending in `*`). */
export function commandEnv(
  env: Readonly<Record<string, string | undefined>>,
  allowlist: readonly string[],
): Record<string, string> {
  const exact = new Set(allowlist.filter((entry) => !entry.endsWith("*")));
  const prefixes = allowlist.filter((entry) => entry.endsWith("*")).map((entry) => entry.slice(0, -1));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const admitted =
      exact.has(name) || (!SECRET_NAME.test(name) && prefixes.some((prefix) => name.startsWith(prefix)));
    if (admitted) out[name] = value;
  }
  return out;
}
