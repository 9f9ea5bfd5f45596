import { SdkError } from "@agent-tools/core";

/**
 * The host environment variables a confined command gets by default: where
 * things are and how to format output, never a credential. Shells need
 * `PATH HOME USER LOGNAME SHELL`; locales `LANG LANGUAGE LC_*`; terminals and
 * test runners `TERM COLORTERM NO_COLOR FORCE_COLOR CI`; `TZ`; the XDG base
 * directories; CA bundles (`SSL_CERT_FILE SSL_CERT_DIR NODE_EXTRA_CA_CERTS`);
 * toolchains installed outside the default places (`JAVA_HOME GOROOT
 * GOPATH CARGO_HOME RUSTUP_HOME VIRTUAL_ENV`). Everything else (API keys,
 * tokens, `SSH_AUTH_SOCK`, proxies with credentials, ...) stays with the host
 * unless it lists the name in `sandbox.environment.allow`.
 */
export const DEFAULT_SANDBOX_ENVIRONMENT: readonly string[] = [
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
  "CI",
  "TZ",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_CONFIG_DIRS",
  "XDG_DATA_DIRS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
  "JAVA_HOME",
  "GOROOT",
  "GOPATH",
  "CARGO_HOME",
  "RUSTUP_HOME",
  "VIRTUAL_ENV",
];

/** A variable name (`MY_VAR`), a prefix ending in `*` (`NPM_*`), or `*` alone (every variable). */
const PATTERN = /^(?:[A-Za-z_][A-Za-z0-9_]*\*?|\*)$/;

/** True when `name` matches one of `patterns` (exact names, or prefixes ending in `*`). */
export function environmentNameAllowed(name: string, patterns: readonly string[]): boolean {
  for (const pattern of patterns) {
    if (pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern) return true;
  }
  return false;
}

/**
 * Checks the host's `sandbox.environment` option: absent, or `{ allow }`
 * with an array of variable names or prefixes ending in `*`. Throws
 * `SdkError` (`invalid_options`) naming what is wrong; returns the allowed
 * patterns (empty when absent).
 *
 * @example
 * checkSandboxEnvironment({ allow: ["MY_VAR", "NPM_*"] }); // ["MY_VAR", "NPM_*"]
 */
export function checkSandboxEnvironment(value: unknown): string[] {
  if (value === undefined) return [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new SdkError("invalid_options", `sandbox.environment must be an object like { allow: ["MY_VAR", "NPM_*"] }, not ${JSON.stringify(value)}.`);
  }
  for (const key of Object.keys(value)) {
    if (key !== "allow") {
      const hint = key.toLowerCase() === "allow" || key.toLowerCase() === "allowlist" ? ` Did you mean "allow"?` : "";
      throw new SdkError(
        "invalid_options",
        `Unknown key sandbox.environment.${key}.${hint} The only key is "allow": a list of variable names or prefixes ending in "*".`,
        {
          key,
        },
      );
    }
  }
  const allow = (value as { allow?: unknown }).allow;
  if (allow === undefined) return [];
  if (!Array.isArray(allow)) {
    throw new SdkError(
      "invalid_options",
      `sandbox.environment.allow must be an array of variable names or prefixes ending in "*" (e.g. ["MY_VAR", "NPM_*"]), not ${JSON.stringify(allow)}.`,
    );
  }
  for (const entry of allow) {
    if (typeof entry !== "string" || !PATTERN.test(entry)) {
      throw new SdkError(
        "invalid_options",
        `sandbox.environment.allow entry ${JSON.stringify(entry)} is not a variable name (letters, digits and "_", not starting with a digit), optionally ending in "*" for a prefix (e.g. "NPM_*"), or "*" for the whole host environment.`,
        { entry },
      );
    }
  }
  return [...allow] as string[];
}

/**
 * The environment of a confined command: the host's variables whose names
 * the defaults ({@link DEFAULT_SANDBOX_ENVIRONMENT}) or `allow` match (none
 * when the spawn set `extendEnv: false`), then the spawn's own `env` over
 * them (the tool's fixed additions and the host's shell `env` always reach
 * the command). Undefined values are dropped.
 *
 * @example
 * confinedEnvironment({ PATH: "/usr/bin", OPENAI_API_KEY: "sk-..." }, { env: { PAGER: "cat" } }, []);
 * // { PATH: "/usr/bin", PAGER: "cat" }
 */
export function confinedEnvironment(
  hostEnvironment: Readonly<Record<string, string | undefined>>,
  spawn: { readonly env?: Readonly<Record<string, string | undefined>>; readonly extendEnv?: boolean },
  allow: readonly string[] = [],
): Record<string, string> {
  const environment: Record<string, string> = {};
  if (spawn.extendEnv !== false) {
    const patterns = [...DEFAULT_SANDBOX_ENVIRONMENT, ...allow];
    for (const [name, value] of Object.entries(hostEnvironment)) {
      if (value !== undefined && environmentNameAllowed(name, patterns)) environment[name] = value;
    }
  }
  for (const [name, value] of Object.entries(spawn.env ?? {})) {
    if (value === undefined) delete environment[name];
    else environment[name] = value;
  }
  return environment;
}
