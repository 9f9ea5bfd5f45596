import { readFileSync } from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

/** Ignore rules of one file, applying to paths below `directory`. */
export interface IgnoreLayer {
  /** Absolute directory the rules are relative to. */
  readonly directory: string;
  readonly matcher: Ignore;
}

/** Ignore files read in each directory, highest precedence first (as ripgrep orders them). */
const DIRECTORY_IGNORE_FILES = [".rgignore", ".ignore", ".gitignore"] as const;

function readRules(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/**
 * The ignore layers a directory adds, highest precedence first: `.rgignore`,
 * `.ignore`, `.gitignore`, then `.git/info/exclude` when the directory holds
 * a `.git`. Honoured whether or not the directory is inside a git repository.
 *
 * @param names the directory's entry names when already known (saves stat calls)
 */
export function directoryLayers(directory: string, names?: ReadonlySet<string>, includeGit = true): IgnoreLayer[] {
  const layers: IgnoreLayer[] = [];
  for (const name of DIRECTORY_IGNORE_FILES) {
    if (name === ".gitignore" && !includeGit) continue;
    if (names && !names.has(name)) continue;
    const rules = readRules(path.join(directory, name));
    if (rules !== null && rules.trim() !== "") layers.push({ directory, matcher: ignore({ allowRelativePaths: true }).add(rules) });
  }
  if (includeGit && (!names || names.has(".git"))) {
    const rules = readRules(path.join(directory, ".git", "info", "exclude"));
    if (rules !== null && rules.trim() !== "") layers.push({ directory, matcher: ignore({ allowRelativePaths: true }).add(rules) });
  }
  return layers;
}

/**
 * Layers of the ancestors of `base` (nearest first), as ripgrep reads parent
 * directories: `.ignore`/`.rgignore` of every ancestor, and git rules up to
 * the nearest enclosing repository root.
 */
export function ancestorLayers(base: string): IgnoreLayer[] {
  const layers: IgnoreLayer[] = [];
  let includeGit = !hasGitDirectory(base);
  let current = path.dirname(base);
  let previous = base;
  while (current !== previous) {
    layers.push(...directoryLayers(current, undefined, includeGit));
    if (includeGit && hasGitDirectory(current)) includeGit = false;
    previous = current;
    current = path.dirname(current);
  }
  return layers;
}

function hasGitDirectory(directory: string): boolean {
  return readRules(path.join(directory, ".git", "HEAD")) !== null || readRules(path.join(directory, ".git")) !== null;
}

/**
 * Whether `absolutePath` is ignored by `layers` (highest precedence first):
 * the first layer with a verdict (ignored or re-included) decides.
 */
export function isIgnored(layers: readonly IgnoreLayer[], absolutePath: string, isDirectory: boolean): boolean {
  for (const layer of layers) {
    let relative = absolutePath.slice(layer.directory.length + (layer.directory.endsWith("/") ? 0 : 1));
    if (relative === "") continue;
    if (isDirectory) relative += "/";
    const verdict = layer.matcher.test(relative);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}
