/**
 * The paths a file tool call would touch, as path rules see them: the
 * canonical path the tool itself would use (the registry's path policy, then
 * the realpath of the longest existing prefix) and the lexical path (before
 * symlinks, matched by deny and ask rules only), plus whether a walk tool
 * walks a directory there.
 */
import { lstatSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { PathIntent, PathPolicy } from "@agent-tools/core";
import { canonicalizeTarget, isWithin, tryRealpath } from "@agent-tools/core/internal";
import type { PathBases } from "./path-pattern.js";

/** One path of a call. */
export interface CallPath {
  /** The path as the call gave it. */
  readonly input: string;
  /** Where the tool would act after symlinks; undefined when the path policy refuses the path (then no allow rule matches). */
  readonly canonical?: string;
  /** The path resolved without following symlinks. */
  readonly lexical?: string;
  /** When the path policy refused the path: the lexical path with its symlinks resolved (deny and ask rules match it too). */
  readonly lexicalCanonical?: string;
  /**
   * True when the call reaches everything below a directory here: a walk tool
   * (List, Glob, Grep) walking it, or Delete of a directory (it removes what
   * lies below). Deny and ask rules then match anything below it, allow rules
   * must cover all of it.
   */
  readonly walk: boolean;
  /** True for Delete of a directory: an allow rule must also match the directory itself. */
  readonly tree?: boolean;
  /** What deny and ask rules match: the canonical, lexical and (when refused) lexical canonical paths, without repeats. */
  readonly denyTargets: readonly string[];
  /** The scope the path policy resolved it into (`workspace`, `root`, `external`, ...). */
  readonly scope?: string;
}

/** What resolving a call's paths needs. */
export interface CallPathContext {
  readonly paths?: PathPolicy;
  readonly workdir: string;
  readonly toolName: string;
  readonly intent: PathIntent;
  readonly walkTool: boolean;
}

const unique = (items: readonly (string | null | undefined)[]): string[] => [...new Set(items.filter((item): item is string => typeof item === "string"))];

/**
 * The linked git worktree holding `workdir` and its main worktree, or
 * undefined: the nearest `.git` at or above `workdir` is a file naming
 * `<main>/.git/worktrees/<name>`, whose `commondir` is `<main>/.git`. A
 * forged `.git` file can only add paths that deny and ask rules look at,
 * never take one away.
 */
export function linkedWorktreeOf(workdir: string): { root: string; main: string } | undefined {
  for (let dir = workdir; ; dir = path.dirname(dir)) {
    const marker = path.join(dir, ".git");
    let isFile: boolean;
    try {
      isFile = lstatSync(marker).isFile();
    } catch {
      if (path.dirname(dir) === dir) return undefined;
      continue;
    }
    if (!isFile) return undefined;
    try {
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(marker, "utf8"))?.[1]?.trim();
      if (pointer === undefined) return undefined;
      const gitDir = path.resolve(dir, pointer);
      const common = path.resolve(gitDir, readFileSync(path.join(gitDir, "commondir"), "utf8").trim());
      const main = tryRealpath(path.dirname(common)) ?? path.dirname(common);
      const root = tryRealpath(dir) ?? dir;
      return main === root ? undefined : { root, main };
    } catch {
      return undefined;
    }
  }
}

/** The directories anchors resolve against: given and canonical forms of the workdir, the home and each root. */
export function pathBasesOf(options: { paths?: PathPolicy; workdir: string; home: string }): PathBases {
  const roots = new Map<string, string[]>();
  for (const root of options.paths?.roots() ?? []) roots.set(root.alias, unique([root.path, root.canonicalPath]));
  const workdir = unique([options.workdir, options.paths?.workdir, tryRealpath(options.workdir)]);
  const linked = linkedWorktreeOf(options.workdir);
  return {
    workdir,
    home: unique([options.home, tryRealpath(options.home)]),
    roots,
    relatives: new Map(),
    ...(linked === undefined
      ? {}
      : {
          mirror: {
            from: unique([linked.root, path.resolve(options.workdir, path.relative(tryRealpath(options.workdir) ?? options.workdir, linked.root))]),
            to: linked.main,
          },
        }),
  };
}

/** `targets` and, in a linked worktree, their counterparts in the main worktree (what the apply step would change there). */
export function withMirrored(targets: readonly string[], bases: PathBases): readonly string[] {
  const mirror = bases.mirror;
  if (mirror === undefined) return targets;
  const out = [...targets];
  for (const target of targets) {
    const from = mirror.from.find((dir) => isWithin(dir, target));
    if (from !== undefined) out.push(path.join(mirror.to, path.relative(from, target)));
  }
  return unique(out);
}

function lexicalOf(input: string, context: CallPathContext): string | undefined {
  if (input.startsWith("root://")) {
    const tail = input.slice("root://".length);
    const slash = tail.indexOf("/");
    const alias = slash === -1 ? tail : tail.slice(0, slash);
    const root = context.paths?.roots().find((item) => item.alias === alias);
    return root === undefined ? undefined : path.resolve(root.path, slash === -1 ? "." : tail.slice(slash + 1));
  }
  if (input.includes("://")) return undefined;
  return path.resolve(context.workdir, input);
}

function canonicalOf(input: string, lexical: string | undefined, context: CallPathContext): { canonical?: string; scope?: string } {
  try {
    if (context.paths !== undefined) {
      const resolved = context.paths.resolve(input, { intent: context.intent, label: `${context.toolName} path`, allowExternal: true });
      const target = canonicalizeTarget(resolved.absolutePath, { keepLeafSymlink: context.intent === "delete" });
      return { canonical: target.canonicalPath, scope: resolved.scope };
    }
    const canonical = lexical === undefined ? undefined : safeCanonical(lexical, context.intent);
    return canonical === undefined ? {} : { canonical };
  } catch {
    return {};
  }
}

/** The canonical form of an absolute path (a symlink loop: undefined). */
function safeCanonical(target: string, intent: PathIntent): string | undefined {
  try {
    return canonicalizeTarget(target, { keepLeafSymlink: intent === "delete" }).canonicalPath;
  } catch {
    return undefined;
  }
}

/** True when `target` is a directory itself (not a link to one: Delete removes a link, not what it points at). */
function isRealDirectory(target: string | undefined): boolean {
  if (target === undefined) return false;
  try {
    return lstatSync(target).isDirectory();
  } catch {
    return false;
  }
}

function isFile(target: string | undefined): boolean {
  if (target === undefined) return false;
  try {
    return statSync(target).isFile();
  } catch {
    return false;
  }
}

/**
 * Resolves one path of a call. A walk tool walks a directory unless the
 * path is an existing file (Glob on a file walks its folder; Grep and List
 * on a file read that file). A path that does not exist counts as a
 * directory (fail closed: nothing below it is known).
 */
export function resolveCallPath(input: string, context: CallPathContext): CallPath {
  const lexical = lexicalOf(input, context);
  const { canonical, scope } = canonicalOf(input, lexical, context);
  // When the path policy refused the path, the tool will not run it either; deny and ask rules still look where it points.
  const lexicalCanonical = lexical === undefined || canonical !== undefined ? undefined : safeCanonical(lexical, context.intent);
  const file = isFile(canonical);
  if (context.walkTool && file && context.toolName === "Glob") {
    const parents = [canonical, lexical, lexicalCanonical].filter((item): item is string => item !== undefined).map((item) => path.dirname(item));
    return {
      denyTargets: [...new Set(parents)],
      input,
      walk: true,
      ...(canonical === undefined ? {} : { canonical: path.dirname(canonical) }),
      ...(lexical === undefined ? {} : { lexical: path.dirname(lexical) }),
      ...(lexicalCanonical === undefined ? {} : { lexicalCanonical: path.dirname(lexicalCanonical) }),
      ...(scope === undefined ? {} : { scope }),
    };
  }
  // Delete of a directory removes everything below it: matched like a walk (a deny below it denies it).
  const tree = context.intent === "delete" && [canonical, lexicalCanonical].some(isRealDirectory);
  return {
    denyTargets: unique([canonical, lexical, lexicalCanonical]),
    input,
    walk: (context.walkTool && !file) || tree,
    ...(tree ? { tree } : {}),
    ...(canonical === undefined ? {} : { canonical }),
    ...(lexical === undefined ? {} : { lexical }),
    ...(lexicalCanonical === undefined ? {} : { lexicalCanonical }),
    ...(scope === undefined ? {} : { scope }),
  };
}

/**
 * True when the file system holding `directory` compares names without
 * case: the directory's own name with its case swapped names the same
 * directory. Asked once per directory and remembered in `memory`.
 */
export function isCaseInsensitive(directory: string, memory: Map<string, boolean>): boolean {
  const known = memory.get(directory);
  if (known !== undefined) return known;
  let answer = false;
  const base = path.basename(directory);
  const swapped = [...base].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join("");
  if (swapped !== base) {
    try {
      const a = statSync(directory);
      const b = statSync(path.join(path.dirname(directory), swapped));
      answer = a.ino === b.ino && a.dev === b.dev;
    } catch {
      answer = false;
    }
  }
  memory.set(directory, answer);
  return answer;
}
