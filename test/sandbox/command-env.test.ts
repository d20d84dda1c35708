import { describe, expect, it } from "vitest";
import { commandEnv, DEFAULT_COMMAND_ENV } from "../../src/sandbox/command-env.ts";

/** What a command needs from the environment to find its tools and format its output, by who needs it. */
const NEEDED: Record<string, string[]> = {
  "the shell and the user": ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TZ", "EDITOR", "VISUAL"],
  "language and terminal": [
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "TERM",
    "COLORTERM",
    "NO_COLOR",
    "FORCE_COLOR",
  ],
  "CI and XDG folders": [
    "CI",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "XDG_DATA_HOME",
    "XDG_STATE_HOME",
    "XDG_RUNTIME_DIR",
  ],
  "Node and npm": ["NODE_ENV", "NODE_OPTIONS", "NODE_PATH", "NVM_DIR", "NVM_BIN", "npm_config_cache"],
  Python: ["VIRTUAL_ENV", "CONDA_PREFIX", "PYENV_ROOT", "PYENV_VERSION", "PYTHONPATH"],
  "Go and Rust": ["GOPATH", "GOROOT", "GOFLAGS", "CARGO_HOME", "RUSTUP_HOME"],
  "Java and .NET": ["JAVA_HOME", "MAVEN_HOME", "GRADLE_USER_HOME", "DOTNET_ROOT"],
  Ruby: ["GEM_HOME", "GEM_PATH", "RBENV_ROOT"],
  TLS: ["SSL_CERT_FILE", "SSL_CERT_DIR"],
};

describe("the variables a command inherits", () => {
  it.each(Object.entries(NEEDED))("by default, what %s need", (_, names) => {
    const env = Object.fromEntries(names.map((name) => [name, `value of ${name}`]));
    expect(commandEnv(env, DEFAULT_COMMAND_ENV)).toEqual(env);
  });

  it("by default, no key, token or credential of the user's", () => {
    const env = {
      PATH: "/usr/bin",
      ANTHROPIC_API_KEY: "k",
      OPENAI_API_KEY: "k",
      AWS_SECRET_ACCESS_KEY: "k",
      GITHUB_TOKEN: "t",
      SSH_AUTH_SOCK: "/run/ssh",
      NPM_TOKEN: "t",
      DATABASE_URL: "postgres://u:p@h/db",
    };
    expect(commandEnv(env, DEFAULT_COMMAND_ENV)).toEqual({ PATH: "/usr/bin" });
  });

  it("names exactly, or by a prefix ending in *; an unset variable is not passed on", () => {
    const env = {
      PATH: "/bin",
      PATHS: "x",
      LC_ALL: "C",
      LC_NUMERIC: "C",
      LCX: "x",
      XLC_ALL: "x",
      EMPTY: "",
      GONE: undefined,
    };
    expect(
      commandEnv({ ...env, XDG_DATA_HOME: "/d" }, ["PATH", "LC_*", "XDG_*", "EMPTY", "GONE"]),
    ).toStrictEqual({
      PATH: "/bin",
      LC_ALL: "C",
      LC_NUMERIC: "C",
      XDG_DATA_HOME: "/d",
      EMPTY: "",
    });
  });

  it("a name that looks like a secret never comes through a prefix, in any case; named exactly, it does", () => {
    const looksSecret = [
      "LC_API_KEY",
      "LC_TOKEN",
      "LC_SECRET",
      "LC_PASSWORD",
      "LC_PASSWD",
      "LC_CREDENTIALS",
      "LC_AUTH",
      "LC_COOKIE",
      "LC_SESSION",
      "LC_PRIVATE",
      "LC_my_token",
    ];
    const env = Object.fromEntries([...looksSecret, "LC_TIME"].map((name) => [name, "v"]));
    expect(commandEnv(env, ["LC_*"])).toEqual({ LC_TIME: "v" });
    expect(commandEnv({ GITHUB_TOKEN: "t" }, ["GITHUB_TOKEN"])).toEqual({ GITHUB_TOKEN: "t" });
  });
});
