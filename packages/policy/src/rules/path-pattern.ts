/**
 * Path specifiers of file rules (`Read(~/.ssh/**)`, `Edit(/src/**)`): the
 * anchor (`/` project root, `//` absolute, `~/` home, `root://alias/`,
 * `./` or a relative path = the workdir, `.` = the workdir itself, no `/` at
 * all = that name at any depth) and a minimatch glob (`dot: true`; `*` stays within one folder,
 * `**` crosses folders) over the path relative to the anchor. A pattern whose
 * last segment has no wildcard also covers everything below it (naming a
 * folder names its contents); a trailing `/` is the same as `/**`.
 */
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { isWithin } from "@agent-tools/core/internal";
import { Minimatch } from "minimatch";

/** Where a path pattern is anchored. */
export type PathAnchor = "workdir" | "absolute" | "home" | "root" | "anywhere";

/** A checked path specifier. */
export interface PathPattern {
  readonly anchor: PathAnchor;
  /** The alias of `root://alias/...`. */
  readonly alias?: string;
  /** Leading `..` segments of a workdir-relative pattern. */
  readonly up: number;
  /** The glob below the anchor ("" = the anchor itself); for `anywhere`, one path segment. */
  readonly glob: string;
  /** True when the glob has no wildcard at all. */
  readonly literal: boolean;
  /** The leading segments without wildcards, joined by `/` (a quick test before minimatch); lower case for `nocase`. */
  readonly prefix: { readonly exact: string; readonly nocase: string };
  /** Matchers, case-sensitive and not: the glob, and with `/**` when its last segment is literal. */
  readonly matchers: { readonly exact: readonly Minimatch[]; readonly nocase: readonly Minimatch[] };
}

/** The directories anchors resolve against, as one evaluation sees them. */
export interface PathBases {
  readonly workdir: readonly string[];
  readonly home: readonly string[];
  readonly roots: ReadonlyMap<string, readonly string[]>;
  /** Paths relative to a base, remembered for one call (every rule asks for the same few). */
  readonly relatives?: Map<string, string | null>;
  /**
   * When the workdir lies in a linked git worktree (a worktree subagent's):
   * that worktree's root and the main worktree its changes are applied to.
   * Deny and ask rules also match a path's counterpart there.
   */
  readonly mirror?: { readonly from: readonly string[]; readonly to: string };
}

const invalid = (rule: string, why: string): never => {
  throw new SdkError("invalid_options", `The permission rule ${JSON.stringify(rule)} ${why}`, { rule });
};

function splitAnchor(specifier: string): { anchor: PathAnchor; alias?: string; rest: string } {
  if (specifier.startsWith("root://")) {
    const tail = specifier.slice("root://".length);
    const slash = tail.indexOf("/");
    return { anchor: "root", alias: slash === -1 ? tail : tail.slice(0, slash), rest: slash === -1 ? "" : tail.slice(slash + 1) };
  }
  if (specifier.startsWith("//")) return { anchor: "absolute", rest: specifier.slice(2) };
  if (specifier === "~" || specifier.startsWith("~/")) return { anchor: "home", rest: specifier.slice(2) };
  if (specifier.startsWith("/")) return { anchor: "workdir", rest: specifier.slice(1) };
  // `.` is the workdir itself (a path, not a name to find at any depth).
  if (specifier === ".") return { anchor: "workdir", rest: "" };
  if (!specifier.includes("/")) return { anchor: "anywhere", rest: specifier };
  return { anchor: "workdir", rest: specifier };
}

/** `#` and `!` are a comment and a negation to minimatch; in a rule they are part of a name (a leading `!` is refused). */
const MINIMATCH_OPTIONS = { dot: true, nocomment: true, nonegate: true } as const;

/** A segment with any glob syntax: minimatch's hasMagic misses `[k]` (one character) and braces, which still do not match themselves. */
const isMagic = (segment: string): boolean => /[*?[\]{}()!+@]/.test(segment) || new Minimatch(segment, MINIMATCH_OPTIONS).hasMagic();

function matchersOf(glob: string, literalLast: boolean): PathPattern["matchers"] {
  const globs = literalLast && glob !== "" ? [glob, `${glob}/**`] : glob === "" ? ["**"] : [glob];
  return {
    exact: globs.map((item) => new Minimatch(item, MINIMATCH_OPTIONS)),
    nocase: globs.map((item) => new Minimatch(item, { ...MINIMATCH_OPTIONS, nocase: true })),
  };
}

/**
 * Checks and compiles a path specifier of `rule`. Throws `SdkError` for a
 * pattern that can never match: `..` after the first segment or under `/`,
 * `~/`, `//` or `root://` (canonical paths have none), a `~user` form, an
 * empty `root://` alias, a `\` separator, or spaces around the path.
 *
 * @example
 * compilePathPattern("Read(~/.ssh/**)", "~/.ssh/**"); // { anchor: "home", glob: ".ssh/**", ... }
 */
export function compilePathPattern(rule: string, specifier: string): PathPattern {
  if (specifier.includes("\\")) invalid(rule, "uses `\\`; write paths with `/` (they are matched after normalisation).");
  if (specifier !== specifier.trim()) invalid(rule, "has spaces around its path; write it without them (a path with them would never match what was meant).");
  if (specifier.startsWith("!")) invalid(rule, "starts with `!`: a rule cannot exclude paths (gitignore's negation); name the paths it covers.");
  if (/^~[^/]/.test(specifier)) invalid(rule, "uses `~user`; only `~/` (the home of this process) is supported.");
  const { anchor, alias, rest } = splitAnchor(specifier);
  if (anchor === "root" && (alias === undefined || alias === "")) invalid(rule, 'names no root alias; write "root://<alias>/<glob>".');
  const trailingSlash = rest.endsWith("/");
  const segments = rest.split("/").filter((segment) => segment !== "" && segment !== ".");
  let up = 0;
  while (anchor === "workdir" && !specifier.startsWith("/") && segments[up] === "..") up += 1;
  if (segments.slice(up).includes("..")) {
    invalid(rule, "has a `..` segment that rules cannot match: paths are compared in canonical form (no `..`); write the path it means.");
  }
  const body = segments.slice(up);
  if (trailingSlash) body.push("**");
  const glob = body.join("/");
  const literal = !body.some(isMagic);
  const firstMagic = body.findIndex(isMagic);
  const literalPrefix = (firstMagic === -1 ? body : body.slice(0, firstMagic)).join("/");
  const prefix = { exact: literalPrefix, nocase: literalPrefix.toLowerCase() };
  const last = body.at(-1);
  const literalLast = last !== undefined && !isMagic(last);
  if (anchor === "anywhere") {
    return { anchor, up, glob, literal, prefix, matchers: matchersOf(glob, false), ...(alias === undefined ? {} : { alias }) };
  }
  return { anchor, up, glob, literal, prefix, matchers: matchersOf(glob, literalLast), ...(alias === undefined ? {} : { alias }) };
}

function basesOf(pattern: PathPattern, bases: PathBases): readonly string[] {
  if (pattern.anchor === "absolute") return ["/"];
  if (pattern.anchor === "home") return bases.home;
  if (pattern.anchor === "root") return bases.roots.get(pattern.alias ?? "") ?? [];
  const ups = pattern.up;
  return ups === 0 ? bases.workdir : bases.workdir.map((dir) => path.resolve(dir, ...Array.from({ length: ups }, () => "..")));
}

const relativeInside = (base: string, target: string, memory: Map<string, string | null> | undefined): string | undefined => {
  const key = `${base}\0${target}`;
  const known = memory?.get(key);
  if (known !== undefined) return known ?? undefined;
  const relative = isWithin(base, target) ? path.relative(base, target).split(path.sep).join("/") : null;
  memory?.set(key, relative);
  return relative ?? undefined;
};

/** How a target is matched: the path itself, or a walk below a directory (`cover`: everything below it; `reach`: anything below it). */
export type PathMatchMode = "path" | "cover" | "reach";

/** Probes below a directory: a glob covering them covers everything below it. */
const COVER_PROBES = ["\u0001a", "\u0001a/\u0001b/.\u0001c"];

/**
 * True when `pattern` matches the absolute `target` (`mode` "path"), covers
 * everything below the directory `target` ("cover", for allowing a walk), or
 * could match anything below it ("reach", for denying a walk).
 */
export function matchPathPattern(pattern: PathPattern, target: string, options: { bases: PathBases; nocase: boolean; mode: PathMatchMode }): boolean {
  const matchers = options.nocase ? pattern.matchers.nocase : pattern.matchers.exact;
  const test = (relative: string, partial = false): boolean => matchers.some((matcher) => matcher.match(relative, partial));
  if (pattern.anchor === "anywhere") {
    const segments = target.split(path.sep).filter((segment) => segment !== "");
    if (segments.some((segment) => test(segment))) return true;
    if (options.mode === "cover") return COVER_PROBES.every((probe) => probe.split("/").some((segment) => test(segment)));
    return options.mode === "reach";
  }
  for (const base of basesOf(pattern, options.bases)) {
    const relative = relativeInside(base, target, options.bases.relatives);
    if (relative === undefined) {
      if (options.mode === "reach" && isWithin(target, base)) return true;
      continue;
    }
    const prefix = options.nocase ? pattern.prefix.nocase : pattern.prefix.exact;
    const compared = options.nocase ? relative.toLowerCase() : relative;
    // Quick rejection: the path is neither below the literal prefix nor (for a walk) above it.
    if (
      prefix !== "" &&
      compared !== prefix &&
      !compared.startsWith(`${prefix}/`) &&
      !(options.mode !== "path" && (compared === "" || prefix.startsWith(`${compared}/`)))
    )
      continue;
    if (relative !== "" && test(relative)) return true;
    if (relative === "" && pattern.glob === "") return true;
    if (options.mode === "cover" && COVER_PROBES.every((probe) => test(relative === "" ? probe : `${relative}/${probe}`))) return true;
    if (options.mode === "reach" && (relative === "" || test(relative, true))) return true;
  }
  return false;
}
