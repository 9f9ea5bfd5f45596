/**
 * How the Bash skill guard reads the words of a command: brace and variable
 * expansion it can follow, paths resolved against the (tracked) cwd, and
 * where a path, possibly a glob, falls relative to the skills root. Paths
 * are POSIX paths. Best-effort by nature: what the shell computes at run
 * time (`$(...)`, variables set by programs) is out of its sight.
 */
import { posix } from "node:path";

/** Where a path falls relative to the skills root. */
export type SkillLocation = { readonly kind: "outside" } | { readonly kind: "root" } | { readonly kind: "skill"; readonly name: string; readonly rest: string };

/** The location of a path outside the skills root. */
export const OUTSIDE: SkillLocation = Object.freeze({ kind: "outside" });

/** What resolving a word needs: the home folder, the cwd at that point of the command line and the variables set so far. */
export interface WordScope {
  readonly home: string;
  readonly cwd: string;
  readonly variables: ReadonlyMap<string, string>;
}

const GLOB = /[*?[]/;
const MAX_BRACE_WORDS = 64;

/**
 * The words a brace expansion yields (`a/{b,c}/d` gives `a/b/d`, `a/c/d`),
 * at most 64; a word without a `{x,y}` group comes back alone.
 *
 * @example
 * expandBraces("/data/{skills,x}/pdf"); // ["/data/skills/pdf", "/data/x/pdf"]
 */
export function expandBraces(word: string): string[] {
  const out: string[] = [];
  const pending = [word];
  while (pending.length > 0 && out.length < MAX_BRACE_WORDS) {
    const current = pending.shift() as string;
    const group = braceGroup(current);
    if (group === undefined) out.push(current);
    else for (const option of group.options) pending.push(current.slice(0, group.start) + option + current.slice(group.end + 1));
  }
  return out;
}

/** The first `{...}` group holding a top-level comma: its bounds and options. */
function braceGroup(word: string): { start: number; end: number; options: string[] } | undefined {
  for (let start = word.indexOf("{"); start >= 0; start = word.indexOf("{", start + 1)) {
    let depth = 0;
    const commas: number[] = [];
    for (let index = start; index < word.length; index += 1) {
      const char = word[index];
      if (char === "{") depth += 1;
      else if (char === "}") depth -= 1;
      else if (char === "," && depth === 1) commas.push(index);
      if (depth === 0) {
        if (commas.length === 0) break;
        const cuts = [start, ...commas, index];
        return { start, end: index, options: cuts.slice(0, -1).map((cut, position) => word.slice(cut + 1, cuts[position + 1])) };
      }
    }
  }
  return undefined;
}

/**
 * Expands a leading `~`, `$HOME`, `${HOME}` and the variables the command
 * line set before (`D=/x; cat $D/f`); unknown variables stay as written.
 *
 * @example
 * expandVariables("$D/pdf/SKILL.md", { home: "/home/u", cwd: "/w", variables: new Map([["D", "/s"]]) }); // "/s/pdf/SKILL.md"
 */
export function expandVariables(word: string, scope: WordScope): string {
  const tilde = word === "~" || word.startsWith("~/") ? scope.home + word.slice(1) : word;
  return tilde.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (text, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare) as string;
    if (name === "HOME") return scope.home;
    return scope.variables.get(name) ?? text;
  });
}

/** A word as an absolute, normalised path: variables expanded, relative words resolved against the cwd. */
export function resolveWord(scope: WordScope, word: string): string {
  const expanded = expandVariables(word, scope);
  return clean(posix.normalize(posix.isAbsolute(expanded) ? expanded : posix.join(scope.cwd, expanded)));
}

/** True when a word, once expanded, is relative (resolved against the cwd). */
export function isRelativeWord(scope: WordScope, word: string): boolean {
  return !posix.isAbsolute(expandVariables(word, scope));
}

/**
 * Where an absolute path falls: outside, on a root itself, or in a skill.
 * Glob characters anywhere are matched against the root's components, so
 * `/d?ta/skills/x` lands in skill `x` of `/data/skills`; a globbed skill
 * name counts as the root (it may match any skill).
 *
 * @example
 * locateInRoots(["/data/skills"], "/d?ta/sk*\/pdf/SKILL.md"); // { kind: "skill", name: "pdf", rest: "SKILL.md" }
 */
export function locateInRoots(roots: readonly string[], absolute: string): SkillLocation {
  const normal = clean(posix.normalize(absolute));
  const parts = normal.split("/");
  for (const root of roots) {
    const rootParts = root.split("/");
    if (parts.length < rootParts.length) continue;
    if (!rootParts.every((part, index) => componentMatches(parts[index] as string, part))) continue;
    if (parts.length === rootParts.length) return { kind: "root" };
    const name = parts[rootParts.length] as string;
    if (GLOB.test(name)) return { kind: "root" };
    return { kind: "skill", name, rest: parts.slice(rootParts.length + 1).join("/") };
  }
  return OUTSIDE;
}

/** A path component against a component of the root: equal, or a glob matching it. */
function componentMatches(pattern: string, name: string): boolean {
  if (pattern === name) return true;
  if (!GLOB.test(pattern)) return false;
  const source = pattern
    .replace(/[.+^${}()|\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  try {
    return new RegExp(`^${source}$`).test(name);
  } catch {
    return true;
  }
}

/**
 * The path part of a word: the value of `--option=value` or `name=value`
 * (`dd of=...`), else the word itself.
 *
 * @example
 * argumentPath("of=/data/skills/pdf/SKILL.md"); // "/data/skills/pdf/SKILL.md"
 */
export function argumentPath(word: string): string {
  const option = /^(?:--?[A-Za-z0-9][A-Za-z0-9-]*|[A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(word);
  return option ? (option[1] as string) : word;
}

/**
 * Paths to a root written inside a longer word, such as inline code
 * (`python3 -c "open('/data/skills/pdf/x')"`): each from the root's first
 * character to the first quote, blank or punctuation after it.
 *
 * @example
 * rootMentions("open('/data/skills/pdf/x','w')", ["/data/skills"]); // ["/data/skills/pdf/x"]
 */
export function rootMentions(word: string, roots: readonly string[]): string[] {
  const found: string[] = [];
  for (const root of roots) {
    for (let at = word.indexOf(root); at >= 0; at = word.indexOf(root, at + 1)) {
      const tail = /^[^\s'"`;,()<>|&\]}]*/.exec(word.slice(at + root.length))?.[0] ?? "";
      found.push(root + tail);
    }
  }
  return found;
}

/** True when `ancestor` is `path` or one of its parent folders. */
export function isAncestorOrSame(ancestor: string, path: string): boolean {
  return ancestor === path || ancestor === "/" || path.startsWith(`${ancestor}/`);
}

/** A path with `/` separators and no trailing slash. */
export function clean(path: string): string {
  const slashed = path.replace(/\\/g, "/");
  return slashed.length > 1 ? slashed.replace(/\/+$/, "") : slashed;
}
