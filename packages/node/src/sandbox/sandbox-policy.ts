import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import type { SandboxPolicy, SandboxSettings } from "@agent-tools/core";

/** Directories under the home directory hidden from confined commands unless the host lists its own. */
export const DEFAULT_HIDDEN_HOME_DIRECTORIES: readonly string[] = [".ssh", ".aws", ".gnupg", ".kube", ".docker", ".config/gcloud", ".azure"];

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
 * The default hidden paths: the secrets directories of `home` that exist
 * (`.ssh`, `.aws`, `.gnupg`, `.kube`, `.docker`, `.config/gcloud`, `.azure`), canonical.
 *
 * @example
 * defaultHiddenPaths("/home/ada"); // ["/home/ada/.ssh", "/home/ada/.aws"] when those two exist
 */
export function defaultHiddenPaths(home: string = homedir()): string[] {
  return canonicalAll(DEFAULT_HIDDEN_HOME_DIRECTORIES.map((name) => path.join(home, name)));
}

/** Options of {@link resolveSandboxPolicy}. */
export interface ResolveSandboxPolicyOptions {
  /** The host's settings (`writableRoots`, `hiddenPaths`, `allowNetwork`). */
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
 * the default secrets directories, no network unless `allowNetwork`.
 *
 * @example
 * const policy = resolveSandboxPolicy({ settings: { enabled: true }, writableRoots: [workdir] });
 */
export function resolveSandboxPolicy(options: ResolveSandboxPolicyOptions): SandboxPolicy {
  const writableRoots = canonicalAll([...options.writableRoots, ...(options.settings.writableRoots ?? [])]);
  const readOnlyRoots = canonicalAll(options.readOnlyRoots ?? []).filter((root) => !writableRoots.includes(root));
  const hiddenPaths = options.settings.hiddenPaths === undefined ? defaultHiddenPaths(options.home) : canonicalAll(options.settings.hiddenPaths);
  return { writableRoots, readOnlyRoots, hiddenPaths, allowNetwork: options.settings.allowNetwork === true };
}
