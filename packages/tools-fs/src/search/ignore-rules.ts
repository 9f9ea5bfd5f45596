import path from "node:path";
import { NO_MATCH, type PathState } from "./gitignore-matcher.js";
import { directoryLayers, type IgnoreLayer } from "./ignore-layers.js";
import { type NameVerdicts, SearchCaches } from "./search-caches.js";

/**
 * The layers in force inside one directory, highest precedence first, with
 * per layer the anchored-rule state of the directory's entries (null where
 * no anchored rule of that layer can match).
 */
export interface DirectoryRules {
  readonly layers: readonly IgnoreLayer[];
  readonly states: ReadonlyArray<PathState | null>;
  /**
   * Per layer with whole-path rules (rare: a class that can match `/`): the
   * directory relative to the layer's, with a trailing `/` ("" for the
   * layer's own); undefined for the others.
   */
  readonly prefixes: ReadonlyArray<string | undefined>;
  /**
   * The verdicts per entry name, shared (within one bundle's
   * {@link SearchCaches}) by every directory with the same ignore files and
   * states (a verdict depends on nothing else).
   */
  readonly names: NameVerdicts | undefined;
}

/**
 * The rules of `layers` with `states`, with their name verdicts shared in
 * `caches` (none where a verdict depends on the path, or once `caches` is
 * closed).
 */
function directoryRules(
  layers: readonly IgnoreLayer[],
  states: ReadonlyArray<PathState | null>,
  prefixes: ReadonlyArray<string | undefined>,
  caches: SearchCaches,
): DirectoryRules {
  if (layers.length === 0 || caches.isClosed || prefixes.some((prefix) => prefix !== undefined)) return { layers, states, prefixes, names: undefined };
  const key = layers.map((layer, index) => `${layer.compiled.id}.${states[index]?.id ?? ""}`).join(",");
  const nameVerdicts = caches.nameVerdicts;
  let names = nameVerdicts.get(key);
  if (!names) {
    if (nameVerdicts.size >= SearchCaches.STACK_LIMIT) nameVerdicts.clear();
    names = { files: new Map(), directories: new Map() };
    nameVerdicts.set(key, names);
  }
  return { layers, states, prefixes, names };
}

/** Rules of a directory without any layer. */
export const NO_RULES: DirectoryRules = { layers: [], states: [], prefixes: [], names: undefined };

/**
 * Adds a directory's own layers (`own`, from {@link directoryLayers}) in
 * front of those it inherits, ordered as ripgrep ranks them: by precedence
 * class first, then deepest first. Own layers start at their rules' first
 * segments. Name verdicts are shared in `caches`.
 */
export function withOwnLayers(inherited: DirectoryRules, own: readonly IgnoreLayer[], caches: SearchCaches): DirectoryRules {
  if (!own.length) return inherited;
  const layers: IgnoreLayer[] = [];
  const states: Array<PathState | null> = [];
  const prefixes: Array<string | undefined> = [];
  for (let category = 0; category <= 3; category += 1) {
    for (const layer of own) {
      if (layer.category !== category) continue;
      layers.push(layer);
      states.push(layer.compiled.initial);
      prefixes.push(layer.compiled.hasWholePathRules ? "" : undefined);
    }
    inherited.layers.forEach((layer, index) => {
      if (layer.category !== category) return;
      layers.push(layer);
      states.push(inherited.states[index]!);
      prefixes.push(inherited.prefixes[index]);
    });
  }
  return directoryRules(layers, states, prefixes, caches);
}

/**
 * The rules of the subdirectory `name` of a directory with `rules` (before
 * the subdirectory's own layers): each anchored state advanced by the name.
 * Returns `rules` itself when nothing changes (the common case deep in a
 * tree).
 */
export function enterDirectory(rules: DirectoryRules, name: string, caches: SearchCaches): DirectoryRules {
  const { states, prefixes } = rules;
  let next: Array<PathState | null> | undefined;
  for (let index = 0; index < states.length; index += 1) {
    const state = states[index];
    if (!state) continue;
    const child = state.child(name);
    if (child === state) continue;
    next ??= states.slice();
    next[index] = child;
  }
  if (!prefixes.some((prefix) => prefix !== undefined)) return next ? directoryRules(rules.layers, next, prefixes, caches) : rules;
  const nextPrefixes = prefixes.map((prefix) => (prefix === undefined ? undefined : `${prefix}${name}/`));
  return directoryRules(rules.layers, next ?? states, nextPrefixes, caches);
}

/**
 * The rules in force in `base` from its ancestors (nearest first), as
 * ripgrep reads parent directories with `--no-require-git`: every ignore
 * file of every ancestor, `.git/info/exclude` included, each advanced along
 * the path from its directory down to `base`.
 *
 * @param boundary the topmost folder whose ignore files count (a host
 *   folder's root, e.g. the skills folder): none above it is read, and none
 *   at all when `base` is not inside it; undefined: every ancestor up to `/`
 */
export function ancestorRules(base: string, caches: SearchCaches, boundary?: string): DirectoryRules {
  const ancestors: string[] = [];
  let current = path.dirname(base);
  let previous = base;
  while (current !== previous) {
    if (boundary !== undefined && !isWithinFolder(boundary, current)) break;
    ancestors.push(current);
    previous = current;
    current = path.dirname(current);
  }
  let rules = NO_RULES;
  // From the root down, so deeper layers come first within a class.
  for (let index = ancestors.length - 1; index >= 0; index -= 1) {
    rules = withOwnLayers(rules, directoryLayers(ancestors[index]!, undefined, caches), caches);
    rules = enterDirectory(rules, path.basename(index === 0 ? base : ancestors[index - 1]!), caches);
  }
  return rules;
}

/** Whether `target` is `folder` or below it (absolute paths). */
function isWithinFolder(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Whether the entry `name` of a directory with `rules` is ignored: in
 * precedence order, the first layer with a matching rule decides (ignored,
 * or kept by a `!rule`); within a layer the last matching rule wins.
 * `caches` are those the rules were made with (they bound the verdicts).
 */
export function isEntryIgnored(rules: DirectoryRules, name: string, isDirectory: boolean, caches: SearchCaches): boolean {
  const names = rules.names;
  if (!names) return judge(rules, name, isDirectory);
  const cache = isDirectory ? names.directories : names.files;
  let verdict = cache.get(name);
  if (verdict === undefined) {
    verdict = judge(rules, name, isDirectory);
    if (++caches.cachedVerdicts > SearchCaches.VERDICT_LIMIT) {
      // Directories keep their (now empty) maps; new stacks get new ones.
      caches.clearVerdicts();
      caches.cachedVerdicts = 1;
    }
    cache.set(name, verdict);
  }
  return verdict;
}

function judge(rules: DirectoryRules, name: string, isDirectory: boolean): boolean {
  const { layers, states } = rules;
  for (let index = 0; index < layers.length; index += 1) {
    const compiled = layers[index]!.compiled;
    let best = compiled.matchName(name, isDirectory);
    const state = states[index];
    if (state) {
      const anchored = state.match(name, isDirectory);
      if (anchored > best) best = anchored;
    }
    const prefix = rules.prefixes[index];
    if (prefix !== undefined) best = compiled.matchPath(prefix + name, isDirectory, best);
    if (best !== NO_MATCH) return !compiled.isNegated(best);
  }
  return false;
}
