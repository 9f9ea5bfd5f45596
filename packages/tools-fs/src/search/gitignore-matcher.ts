import { asBytes, SegmentKind, type SegmentMatcher, segmentMatches } from "./gitignore-glob.js";
import { type IgnorePattern, parseIgnoreFile } from "./gitignore-pattern.js";

/** No rule of the file matches. */
export const NO_MATCH = -1;

const CACHE_LIMIT = 50_000;
/**
 * Id counters of states and compiled files: process-wide only so that ids
 * stay unique across bundles (they key the name verdicts of a bundle's
 * `SearchCaches`); plain numbers, they hold no memory. The caches
 * themselves live in the bundle.
 */
let nextStateId = 0;
let nextFileId = 0;

/**
 * A set of positions in the anchored rules (rule segment by segment) that
 * entries of one directory may be at: a lazily built DFA state over path
 * segments. Directories with the same set share the object, its matches and
 * its transitions; a directory outside every anchored rule has none at all
 * (the walk then only asks the base-name rules).
 */
export class PathState {
  /** Process-wide unique number of this state (keys caches of layer stacks). */
  readonly id = nextStateId++;
  /** Per entry name: positions whose segment is that literal name. */
  private readonly literal = new Map<string, number[]>();
  /** Positions whose segment needs a test (wildcards); `**` positions excluded. */
  private readonly wildcard: number[] = [];
  /** `**` positions: they stay in force in every subdirectory. */
  private readonly globstars: number[] = [];
  private readonly children = new Map<string, PathState | null>();

  constructor(
    private readonly file: CompiledIgnoreFile,
    /** Sorted, closed under "`**` matches nothing". */
    readonly positions: readonly number[],
  ) {
    for (const position of positions) {
      const segment = file.segments[position]!;
      if (segment.kind === SegmentKind.Globstar) this.globstars.push(position);
      else if (segment.kind === SegmentKind.Literal) {
        const list = this.literal.get(segment.text);
        if (list) list.push(position);
        else this.literal.set(segment.text, [position]);
      } else this.wildcard.push(position);
    }
  }

  /** The last rule (index) of the file's anchored rules matching the entry, or {@link NO_MATCH}. */
  match(name: string, isDirectory: boolean): number {
    const literal = this.literal.get(name);
    let best = literal ? this.best(literal, NO_MATCH, isDirectory) : NO_MATCH;
    const { wildcard } = this;
    if (wildcard.length) {
      const segments = this.file.segments;
      for (let index = 0; index < wildcard.length; index += 1) {
        const position = wildcard[index]!;
        if (segmentMatches(segments[position]!, name)) best = this.best([position], best, isDirectory);
      }
    }
    // A trailing `**` (from `/**`) matches every entry.
    return this.globstars.length ? this.best(this.globstars, best, isDirectory) : best;
  }

  /** The highest of `best` and the rules ending at one of `positions` that apply to the entry. */
  private best(positions: readonly number[], best: number, isDirectory: boolean): number {
    const { last, ruleOf, rules } = this.file;
    for (let index = 0; index < positions.length; index += 1) {
      const position = positions[index]!;
      if (!last[position]) continue;
      const rule = ruleOf[position]!;
      if (rule > best && (isDirectory || !rules[rule]!.directoryOnly)) best = rule;
    }
    return best;
  }

  /** The state of the entries of the subdirectory `name` (null: no anchored rule can match there). */
  child(name: string): PathState | null {
    let next = this.children.get(name);
    if (next === undefined) {
      const file = this.file;
      const positions: number[] = [...this.globstars];
      const literal = this.literal.get(name);
      if (literal) for (const position of literal) if (!file.last[position]) positions.push(position + 1);
      for (const position of this.wildcard) {
        if (!file.last[position] && segmentMatches(file.segments[position]!, name)) positions.push(position + 1);
      }
      next = file.state(positions);
      if (this.children.size >= CACHE_LIMIT) this.children.clear();
      this.children.set(name, next);
    }
    return next;
  }
}

/**
 * The rules of one ignore file compiled for the walk: base-name rules
 * (`*.log`, `node_modules/`, `**\/.cache/`) answered once per distinct name,
 * and anchored rules (`/dist`, `packages/foo/dist`, `a/**\/*.tmp`) followed
 * segment by segment with {@link PathState}s, so an entry is only tested
 * against the anchored rules whose leading segments matched its parents.
 * Pure data: shared by every directory with the same text.
 */
export class CompiledIgnoreFile {
  /** Process-wide unique number of this compiled text (keys caches of layer stacks). */
  readonly id = nextFileId++;
  readonly rules: readonly IgnorePattern[];
  /** Flattened segments of every anchored alternative. */
  readonly segments: SegmentMatcher[] = [];
  /** Per position: the rule it belongs to. */
  readonly ruleOf: number[] = [];
  /** Per position: whether it is its alternative's last segment. */
  readonly last: boolean[] = [];
  /** The base-name rules, in order. */
  private readonly nameRules: IgnorePattern[] = [];
  /** The rules tested on the whole relative path (a class that can match `/`), in order. */
  private readonly wholePathRules: IgnorePattern[] = [];
  private readonly fileVerdicts = new Map<string, number>();
  private readonly directoryVerdicts = new Map<string, number>();
  private readonly states = new Map<string, PathState>();
  /** The state at the file's own directory (null without anchored rules). */
  readonly initial: PathState | null;

  constructor(text: string) {
    this.rules = parseIgnoreFile(text);
    const starts: number[] = [];
    for (const rule of this.rules) {
      if (rule.wholePaths) {
        this.wholePathRules.push(rule);
        continue;
      }
      if (rule.name) {
        this.nameRules.push(rule);
        continue;
      }
      for (const path of rule.paths) {
        starts.push(this.segments.length);
        path.forEach((segment, index) => {
          this.segments.push(segment);
          this.ruleOf.push(rule.index);
          this.last.push(index === path.length - 1);
        });
      }
    }
    this.initial = this.state(starts);
  }

  /** Whether the file has no rule at all. */
  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  /** Whether some rule needs the whole relative path ({@link CompiledIgnoreFile.matchPath}). */
  get hasWholePathRules(): boolean {
    return this.wholePathRules.length > 0;
  }

  /**
   * The highest of `best` and the last whole-path rule (index) matching
   * `relativePath` (relative to the file's directory).
   */
  matchPath(relativePath: string, isDirectory: boolean, best: number): number {
    const rules = this.wholePathRules;
    let bytes: string | undefined;
    for (let index = rules.length - 1; index >= 0; index -= 1) {
      const rule = rules[index]!;
      if (rule.index <= best) break;
      if (rule.directoryOnly && !isDirectory) continue;
      bytes ??= asBytes(relativePath);
      if (rule.wholePaths!.some((regex) => regex.test(bytes!))) return rule.index;
    }
    return best;
  }

  /** Whether rule `index` re-includes. */
  isNegated(index: number): boolean {
    return this.rules[index]!.negated;
  }

  /** The last base-name rule (index) matching an entry called `name`, or {@link NO_MATCH}. */
  matchName(name: string, isDirectory: boolean): number {
    const cache = isDirectory ? this.directoryVerdicts : this.fileVerdicts;
    let verdict = cache.get(name);
    if (verdict === undefined) {
      verdict = NO_MATCH;
      const rules = this.nameRules;
      for (let index = rules.length - 1; index >= 0; index -= 1) {
        const rule = rules[index]!;
        if ((isDirectory || !rule.directoryOnly) && segmentMatches(rule.name!, name)) {
          verdict = rule.index;
          break;
        }
      }
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(name, verdict);
    }
    return verdict;
  }

  /** The interned state of a set of positions (null when empty). */
  state(positions: number[]): PathState | null {
    // Close under "`**` matches no directory": a `**` position also stands at the next one.
    const closed = new Set<number>();
    const stack = [...positions];
    while (stack.length) {
      const position = stack.pop()!;
      if (closed.has(position)) continue;
      closed.add(position);
      if (this.segments[position]!.kind === SegmentKind.Globstar && !this.last[position]) stack.push(position + 1);
    }
    if (closed.size === 0) return null;
    const sorted = [...closed].sort((a, b) => a - b);
    const key = sorted.join(",");
    let state = this.states.get(key);
    if (!state) {
      if (this.states.size >= CACHE_LIMIT) this.states.clear();
      state = new PathState(this, sorted);
      this.states.set(key, state);
    }
    return state;
  }
}
