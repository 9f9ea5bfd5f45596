/**
 * The environment every git run the host makes on a model's repository
 * shares (the git adapter's runs, the subagents' runs on the parent
 * repository): which inherited variables to drop and which settings to force.
 */

/**
 * Variables that point git at another repository, work tree, index or
 * object store than the one a run names (a host started from a git hook or
 * alias inherits `GIT_DIR`, `GIT_INDEX_FILE`, ...): never passed on.
 */
export const GIT_LOCATING_VARIABLES: readonly string[] = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_NAMESPACE",
  "GIT_PREFIX",
  "GIT_IMPLICIT_WORK_TREE",
  "GIT_QUARANTINE_PATH",
  "GIT_INTERNAL_SUPER_PREFIX",
  "GIT_SHALLOW_FILE",
  "GIT_GRAFT_FILE",
  "GIT_REPLACE_REF_BASE",
];

/**
 * `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_<n>` / `GIT_CONFIG_VALUE_<n>` for
 * `settings`: git's environment config, with command-line precedence over
 * every config file (git 2.31+; older gits ignore it).
 *
 * @example
 * gitConfigEnvironment({ "core.hooksPath": "/dev/null" }); // { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "core.hooksPath", GIT_CONFIG_VALUE_0: "/dev/null" }
 */
export function gitConfigEnvironment(settings: Readonly<Record<string, string>>): Record<string, string> {
  const entries = Object.entries(settings);
  const environment: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], index) => {
    environment[`GIT_CONFIG_KEY_${index}`] = key;
    environment[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return environment;
}

/**
 * Hooks (`core.hooksPath=/dev/null`) and the file-system monitor
 * (`core.fsmonitor=false`) off, whatever the repository's `.git/config` or
 * `.git/hooks` hold: a model's command may have written them, and the
 * host's git must not run what they name.
 */
export const HOST_GIT_SAFETY_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze(
  gitConfigEnvironment({ "core.hooksPath": "/dev/null", "core.fsmonitor": "false" }),
);
