/**
 * Looks up the programs the local workspace reports as capabilities (git,
 * ripgrep) without starting them: an executable file on `PATH`, or the
 * binary `@vscode/ripgrep` ships.
 */
import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** True when `candidate` is a regular file this process may execute. */
function isExecutableFile(candidate: string): boolean {
  try {
    accessSync(candidate, constants.X_OK);
    return statSync(candidate).isFile();
  } catch {
    return false;
  }
}

/**
 * The first executable `name` in the directories of `searchPath` (a `PATH`
 * value), or null. Empty and relative entries are skipped: they would name
 * a program of whatever directory the process happens to run in.
 *
 * @example
 * findOnPath("git", process.env.PATH); // "/usr/bin/git"
 */
export function findOnPath(name: string, searchPath: string | undefined): string | null {
  for (const directory of (searchPath ?? "").split(path.delimiter)) {
    if (!directory || !path.isAbsolute(directory)) continue;
    const candidate = path.join(directory, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/** The `rgPath` of `@vscode/ripgrep` as `require` resolves it from `from`, when that binary is executable. */
function vscodeRipgrepFrom(from: string): string | null {
  try {
    const rgPath = (createRequire(from)("@vscode/ripgrep") as { rgPath?: unknown }).rgPath;
    return typeof rgPath === "string" && isExecutableFile(rgPath) ? rgPath : null;
  } catch {
    return null;
  }
}

/**
 * Where ripgrep is on this host: the binary of `@vscode/ripgrep` (resolved
 * from this package, then from the host's working directory, where an
 * application installed it), else `rg` on `PATH`; null when neither exists.
 */
export function findRipgrep(searchPath: string | undefined, workingDirectory: string): string | null {
  return vscodeRipgrepFrom(import.meta.url) ?? vscodeRipgrepFrom(path.join(workingDirectory, "noop.js")) ?? findOnPath("rg", searchPath);
}
