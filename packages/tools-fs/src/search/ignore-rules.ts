import { readFileSync } from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";

/** What one ignore file says about a path: nothing (0), ignored (1), or re-included by a `!rule` (2). */
export type IgnoreVerdict = 0 | 1 | 2;
const NONE = 0;
const IGNORED = 1;
const UNIGNORED = 2;

/**
 * The rules of one ignore file, compiled once per distinct text (many
 * directories share the same `.gitignore` text) and reused by every layer
 * and call: pure data, so a bounded process-wide cache is safe.
 */
class CompiledRules {
  /** The base-name rules alone, in order. */
  private readonly nameRules: string[];
  /** Their matcher (its own cache grows with the names it saw: renewed with the verdicts). */
  names: Ignore;
  /** Verdicts of the base-name rules per entry name ("name/" for directories). */
  readonly nameVerdicts = new Map<string, IgnoreVerdict>();
  /** Literal first segments of the anchored rules (rules with a slash). */
  readonly anchoredHeads = new Set<string>();
  /** An anchored rule starts with a wildcard segment: every path may match it. */
  readonly anchoredWildcard: boolean;
  /** Number of rules (comments and blank lines excluded). */
  readonly count: number;

  constructor(readonly text: string) {
    const nameRules: string[] = [];
    let wildcard = false;
    let count = 0;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.replace(/(?<!\\)\s+$/, "");
      if (line === "" || line.startsWith("#")) continue;
      count += 1;
      let body = line.startsWith("!") ? line.slice(1) : line;
      if (body.startsWith("\\")) body = body.slice(1);
      if (body.endsWith("/")) body = body.slice(0, -1);
      if (!body.includes("/")) {
        nameRules.push(line);
        continue;
      }
      const head = body.replace(/^\/+/, "").split("/")[0]!;
      if (head === "" || /[*?[\\]/.test(head)) wildcard = true;
      else this.anchoredHeads.add(head);
    }
    this.anchoredWildcard = wildcard;
    this.count = count;
    this.nameRules = nameRules;
    this.names = ignore({ allowRelativePaths: true, ignoreCase: false }).add(nameRules);
  }

  /** Forgets the cached verdicts (bounds memory for huge flat directories). */
  resetNames(): void {
    this.nameVerdicts.clear();
    this.names = ignore({ allowRelativePaths: true, ignoreCase: false }).add(this.nameRules);
  }
}

const COMPILED_CACHE_SIZE = 256;
const compiledCache = new Map<string, CompiledRules>();

function compile(text: string): CompiledRules {
  let compiled = compiledCache.get(text);
  if (!compiled) {
    compiled = new CompiledRules(text);
    if (compiledCache.size >= COMPILED_CACHE_SIZE) compiledCache.delete(compiledCache.keys().next().value!);
    compiledCache.set(text, compiled);
  }
  return compiled;
}

/**
 * Ignore rules of one file, applying to paths below `directory`.
 *
 * Matching is the `ignore` package's (git semantics, case-sensitive as git
 * and ripgrep are on Linux). Most rules are base-name rules (`node_modules/`,
 * `*.log`): their verdict depends only on the entry's name, so it is
 * computed once per distinct name. Rules with a slash are anchored to the
 * layer's directory; paths whose first segment cannot start such a rule skip
 * them, so a file's full relative path is only tested when it could matter.
 */
export class IgnoreLayer {
  private readonly compiled: CompiledRules;
  private fullMatcher: Ignore | undefined;

  constructor(
    /** Absolute directory the rules are relative to. */
    readonly directory: string,
    rules: string,
    /**
     * Precedence class, as ripgrep ranks ignore files: 0 `.rgignore`, 1
     * `.ignore`, 2 `.gitignore`, 3 `.git/info/exclude`. A lower class wins at
     * any depth; within a class the deeper directory wins.
     */
    readonly category: number,
  ) {
    this.compiled = compile(rules);
  }

  /**
   * Every rule of the file, in order (the `ignore` package's matcher), made
   * on first use: its result cache lives as long as this layer (one walk).
   */
  get matcher(): Ignore {
    return (this.fullMatcher ??= ignore({ allowRelativePaths: true, ignoreCase: false }).add(this.compiled.text));
  }

  /** Whether the file has no rule at all (only comments or blank lines). */
  get isEmpty(): boolean {
    return this.compiled.count === 0;
  }

  /**
   * Whether anchored rules can match paths inside `relativeDirectory` (a
   * directory below this layer's, relative to it; "" for the layer's own,
   * whose entries are then checked one by one with their name): false lets
   * {@link IgnoreLayer.testName} decide alone.
   */
  anchoredApplyBelow(relativeDirectory: string): boolean {
    const { anchoredWildcard, anchoredHeads } = this.compiled;
    if (anchoredWildcard) return true;
    if (relativeDirectory === "" || anchoredHeads.size === 0) return false;
    const slash = relativeDirectory.indexOf("/");
    return anchoredHeads.has(slash === -1 ? relativeDirectory : relativeDirectory.slice(0, slash));
  }

  /** Verdict of the base-name rules alone for an entry called `name`. */
  testName(name: string, isDirectory: boolean): IgnoreVerdict {
    const compiled = this.compiled;
    const key = isDirectory ? `${name}/` : name;
    let verdict = compiled.nameVerdicts.get(key);
    if (verdict === undefined) {
      verdict = toVerdict(compiled.names.test(key));
      // Bounded: names repeat in practice, but a huge flat directory must not grow it forever.
      if (compiled.nameVerdicts.size >= 50_000) compiled.resetNames();
      compiled.nameVerdicts.set(key, verdict);
    }
    return verdict;
  }

  /**
   * Verdict of every rule for `relativePath` (relative to the layer's
   * directory). Like git's matcher, the `ignore` package also reports a path
   * ignored when one of its parent directories is: pass the path's own
   * verdict matcher from {@link IgnoreLayer.ownVerdictMatcher} when a parent
   * may be ignored by this layer (and re-included by a stronger one).
   */
  testPath(relativePath: string, isDirectory: boolean, matcher: Ignore = this.matcher): IgnoreVerdict {
    return toVerdict(matcher.test(isDirectory ? `${relativePath}/` : relativePath));
  }

  /**
   * A matcher that judges entries of `relativeDirectory` by their own path
   * only: the rules plus, last (so they win), re-inclusions of the directory
   * and each of its parents. Used in the rare directories a stronger layer
   * re-included although this layer ignores them or a parent.
   */
  ownVerdictMatcher(relativeDirectory: string): Ignore {
    const protections: string[] = [];
    let prefix = "";
    for (const segment of relativeDirectory.split("/")) {
      prefix += `${segment.replace(/[\\*?[\]!# ]/g, (character) => `\\${character}`)}/`;
      protections.push(`!/${prefix}`);
    }
    return ignore({ allowRelativePaths: true, ignoreCase: false }).add(this.compiled.text).add(protections);
  }
}

function toVerdict(result: { ignored: boolean; unignored: boolean }): IgnoreVerdict {
  return result.ignored ? IGNORED : result.unignored ? UNIGNORED : NONE;
}

/** Ignore files read in each directory, highest precedence first (as ripgrep orders them). */
export const DIRECTORY_IGNORE_FILES = [".rgignore", ".ignore", ".gitignore"] as const;

function readRules(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function layerOf(directory: string, file: string, category: number): IgnoreLayer | null {
  const rules = readRules(file);
  if (rules === null || rules.trim() === "") return null;
  const layer = new IgnoreLayer(directory, rules, category);
  return layer.isEmpty ? null : layer;
}

/**
 * Layers of a directory (`own`) in front of those it inherits, ordered as
 * ripgrep ranks them: by precedence class first, then deepest first.
 */
export function stackLayers(own: readonly IgnoreLayer[], inherited: readonly IgnoreLayer[]): IgnoreLayer[] {
  if (!own.length) return inherited as IgnoreLayer[];
  const merged: IgnoreLayer[] = [];
  for (let category = 0; category <= 3; category += 1) {
    for (const layer of own) if (layer.category === category) merged.push(layer);
    for (const layer of inherited) if (layer.category === category) merged.push(layer);
  }
  return merged;
}

/**
 * The ignore layers a directory adds, highest precedence first: `.rgignore`,
 * `.ignore`, `.gitignore`, then `.git/info/exclude` when the directory holds
 * a `.git`. Honoured whether or not the directory is inside a git repository.
 *
 * @param has whether the directory has an entry of that name, when already
 *   known (saves failed reads); undefined tries every file
 */
export function directoryLayers(directory: string, has?: (name: string) => boolean, includeGit = true): IgnoreLayer[] {
  const layers: IgnoreLayer[] = [];
  DIRECTORY_IGNORE_FILES.forEach((name, category) => {
    if (name === ".gitignore" && !includeGit) return;
    if (has && !has(name)) return;
    const layer = layerOf(directory, path.join(directory, name), category);
    if (layer) layers.push(layer);
  });
  if (includeGit && (!has || has(".git"))) {
    const layer = layerOf(directory, path.join(directory, ".git", "info", "exclude"), 3);
    if (layer) layers.push(layer);
  }
  return layers;
}

/**
 * Layers of the ancestors of `base` (nearest first), as ripgrep reads parent
 * directories: `.ignore`/`.rgignore` of every ancestor, and git rules up to
 * the nearest enclosing repository root.
 */
export function ancestorLayers(base: string): IgnoreLayer[] {
  let layers: IgnoreLayer[] = [];
  let includeGit = !hasGitDirectory(base);
  let current = path.dirname(base);
  let previous = base;
  while (current !== previous) {
    layers = stackLayers(layers, directoryLayers(current, undefined, includeGit));
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
 * The layers in force inside one directory, with what each needs to judge
 * the directory's entries: the directory's path relative to the layer, and
 * whether the layer's anchored rules can apply there at all.
 */
export interface DirectoryRules {
  readonly layers: readonly IgnoreLayer[];
  /** Per layer: the directory relative to the layer's directory ("" when the same). */
  readonly relativeDirectories: readonly string[];
  /** Per layer: whether entries need the full-path test. */
  readonly fullTest: readonly boolean[];
  /** Per layer: the own-verdict matcher where the layer ignores this directory or a parent. */
  readonly ownMatchers: ReadonlyArray<Ignore | undefined>;
}

/** Prepares `layers` (highest precedence first) for the entries of `directory`. */
export function rulesForDirectory(layers: readonly IgnoreLayer[], directory: string): DirectoryRules {
  const relativeDirectories: string[] = [];
  const fullTest: boolean[] = [];
  const ownMatchers: Array<Ignore | undefined> = [];
  for (const layer of layers) {
    const relative = directory.length === layer.directory.length ? "" : directory.slice(layer.directory.length + (layer.directory.endsWith("/") ? 0 : 1));
    const full = layer.anchoredApplyBelow(relative);
    relativeDirectories.push(relative);
    fullTest.push(full);
    // The walk got here, so a stronger layer re-included what this one may ignore.
    ownMatchers.push(full && relative !== "" && layer.testPath(relative, true) === IGNORED ? layer.ownVerdictMatcher(relative) : undefined);
  }
  return { layers, relativeDirectories, fullTest, ownMatchers };
}

/**
 * Whether the entry `name` of a directory prepared by
 * {@link rulesForDirectory} is ignored: the first layer with a verdict
 * (ignored or re-included) decides. The walk never enters ignored
 * directories, so parents need no test.
 */
export function isEntryIgnored(rules: DirectoryRules, name: string, isDirectory: boolean): boolean {
  const { layers } = rules;
  for (let index = 0; index < layers.length; index += 1) {
    const layer = layers[index]!;
    let verdict: IgnoreVerdict;
    if (rules.fullTest[index] || (rules.relativeDirectories[index] === "" && layer.anchoredApplyBelow(name))) {
      const relative = rules.relativeDirectories[index];
      verdict = layer.testPath(relative === "" ? name : `${relative}/${name}`, isDirectory, rules.ownMatchers[index]);
    } else {
      verdict = layer.testName(name, isDirectory);
    }
    if (verdict === IGNORED) return true;
    if (verdict === UNIGNORED) return false;
  }
  return false;
}
