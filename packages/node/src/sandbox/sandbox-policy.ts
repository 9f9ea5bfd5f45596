import { lstatSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { SandboxPolicy, SandboxSettings } from "@agent-tools/core";

/** Directories under the home directory hidden from confined commands unless the host lists its own (each replaced by an empty directory). */
export const DEFAULT_HIDDEN_HOME_DIRECTORIES: readonly string[] = [".ssh", ".aws", ".gnupg", ".kube", ".docker", ".config/gcloud", ".azure", ".config/gh"];

/** Credential files under the home directory hidden from confined commands unless the host lists its own paths (each replaced by an empty file). */
export const DEFAULT_HIDDEN_HOME_FILES: readonly string[] = [
  ".npmrc",
  ".git-credentials",
  ".netrc",
  ".pgpass",
  ".pypirc",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".config/git/credentials",
];

/** The canonical form of an existing path, or undefined when it does not exist. */
function canonical(absolutePath: string): string | undefined {
  try {
    return realpathSync(absolutePath);
  } catch {
    return undefined;
  }
}

function canonicalAll(paths: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const entry of paths) {
    if (!path.isAbsolute(entry)) continue;
    const resolved = canonical(entry);
    if (resolved !== undefined) seen.add(resolved);
  }
  return [...seen];
}

/**
 * The default hidden paths: the credentials of `home` that exist, canonical:
 * the directories of {@link DEFAULT_HIDDEN_HOME_DIRECTORIES} (`.ssh`, `.aws`,
 * `.gnupg`, `.kube`, `.docker`, `.config/gcloud`, `.azure`, `.config/gh`) and
 * the files of {@link DEFAULT_HIDDEN_HOME_FILES} (`.npmrc`, `.git-credentials`,
 * `.netrc`, `.pgpass`, `.pypirc`, `.cargo/credentials(.toml)`, `.config/git/credentials`).
 *
 * @example
 * defaultHiddenPaths("/home/ada"); // ["/home/ada/.ssh", "/home/ada/.npmrc"] when those two exist
 */
export function defaultHiddenPaths(home: string = homedir()): string[] {
  return canonicalAll([...DEFAULT_HIDDEN_HOME_DIRECTORIES, ...DEFAULT_HIDDEN_HOME_FILES].map((name) => path.join(home, name)));
}

/**
 * The entries of a repository's `.git` folder that make git run commands
 * (config, hooks) or name drivers (info/attributes), and the folder of the
 * SDK's subagent apply journal (`agent-tools`: a journal there is rolled back
 * by the host).
 */
export const GIT_CONTROL_ENTRIES: readonly string[] = [".git/config", ".git/config.worktree", ".git/hooks", ".git/info", ".git/agent-tools"];

/**
 * The {@link GIT_CONTROL_ENTRIES} that exist in `roots` (a real `.git`
 * folder, not a symlink, and entries that are no symlinks either), to bind
 * read-only: a confined command can commit, branch and fetch, but cannot
 * write the config or hooks that git run on the host later would obey.
 *
 * @example
 * gitControlPaths(["/work/repo"]); // ["/work/repo/.git/config", "/work/repo/.git/hooks", "/work/repo/.git/info"]
 */
export function gitControlPaths(roots: readonly string[]): string[] {
  const found: string[] = [];
  for (const root of roots) {
    if (!isRealEntry(path.join(root, ".git"), "directory")) continue;
    for (const entry of GIT_CONTROL_ENTRIES) {
      const candidate = path.join(root, entry);
      if (isRealEntry(candidate, "any")) found.push(candidate);
    }
  }
  return found;
}

function isRealEntry(candidate: string, kind: "directory" | "any"): boolean {
  try {
    const info = lstatSync(candidate);
    return !info.isSymbolicLink() && (kind === "any" || info.isDirectory());
  } catch {
    return false;
  }
}

/** Options of {@link resolveSandboxPolicy}. */
export interface ResolveSandboxPolicyOptions {
  /** The host's settings (`writableRoots`, `hiddenPaths`, `allowNetwork`, `environment`). */
  settings: SandboxSettings;
  /** Writable directories the caller grants: the workspace and the roots with write access. */
  writableRoots: readonly string[];
  /** Directories granted read-only (roots with read access). */
  readOnlyRoots?: readonly string[];
  /** The home directory whose secrets directories are hidden by default; default `os.homedir()`. */
  home?: string;
}

/**
 * Resolves the confinement of one command: every directory canonical and
 * existing (missing ones are dropped: there is nothing to bind or hide),
 * the settings' `writableRoots` added to the caller's, `hiddenPaths` or
 * the default credentials, no network unless `allowNetwork`, and the
 * host variables of `environment.allow` beside the default allow-list.
 *
 * Callers that confine more (a skills folder, a task's workdir) pass their
 * directories as `writableRoots` / `readOnlyRoots` here, or add canonical
 * paths to the returned policy's `hiddenPaths` / `readOnlyRoots` /
 * `writableRoots` before `confine`.
 *
 * @example
 * const policy = resolveSandboxPolicy({ settings: { enabled: true }, writableRoots: [workdir] });
 */
export function resolveSandboxPolicy(options: ResolveSandboxPolicyOptions): SandboxPolicy {
  const writableRoots = canonicalAll([...options.writableRoots, ...(options.settings.writableRoots ?? [])]);
  const readOnlyRoots = [...canonicalAll(options.readOnlyRoots ?? []).filter((root) => !writableRoots.includes(root)), ...gitControlPaths(writableRoots)];
  const hiddenPaths = options.settings.hiddenPaths === undefined ? defaultHiddenPaths(options.home) : canonicalAll(options.settings.hiddenPaths);
  const environmentAllow = options.settings.environment?.allow ?? [];
  return {
    writableRoots,
    readOnlyRoots,
    hiddenPaths,
    allowNetwork: options.settings.allowNetwork === true,
    ...(environmentAllow.length > 0 ? { environmentAllow: [...environmentAllow] } : {}),
  };
}
