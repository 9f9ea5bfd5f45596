import { type Dirent, readdirSync } from "node:fs";
import { isToolSidecarName } from "@agent-tools/file-io/internal";
import { DIRECTORY_IGNORE_FILES, directoryLayers } from "./ignore-layers.js";
import { ancestorRules, type DirectoryRules, enterDirectory, isEntryIgnored, withOwnLayers } from "./ignore-rules.js";
import { SearchCaches } from "./search-caches.js";

/** One entry found by {@link walkTree}. */
export interface WalkEntry {
  /** Path relative to the walk base, `/`-separated. */
  relativePath: string;
  kind: "file" | "directory" | "symlink";
  /** 1 for direct children of the base. */
  depth: number;
}

/** Options of {@link walkTree}. */
export interface WalkOptions {
  /** Deepest level returned (1 = direct children); default unlimited. */
  maxDepth?: number;
  /** Return directories and symlinks too (List); default files only. */
  includeAll?: boolean;
  signal?: AbortSignal;
  /** Called with each file as soon as it is found. */
  onFile?: (relativePath: string) => void;
  /** Called with each directory read (relative, `/`-separated; `""` for the base), before its entries. */
  onDirectory?: (relativePath: string) => void;
  /** Also collect the entries into the returned array (default true; false with `onFile` saves the objects). */
  collect?: boolean;
  /** Directories skipped with everything below them, relative to the base with `/` (the path policy's `walkExclusions`). */
  exclude?: ReadonlySet<string>;
  /**
   * The bundle's search caches (compiled ignore files, name verdicts), kept
   * across walks; default a fresh cache for this walk.
   */
  caches?: SearchCaches;
  /**
   * The topmost folder whose ignore files count (a host folder's root: the
   * skills folder, the uploads folder); the ignore files of the folders
   * above it are not read. Default: every ancestor of `base`, as ripgrep.
   */
  ignoreBoundary?: string;
}

/**
 * Walks `base` honouring `.gitignore`, `.ignore`, `.rgignore` and
 * `.git/info/exclude` (in or out of a git repository, including those of
 * parent directories, up to `ignoreBoundary` when given), skipping `.git`
 * directories and never following symlinks. Dot-files are included. Matches what `rg --files --hidden
 * --no-require-git --no-ignore-global` lists.
 *
 * @example
 * const files = await walkTree("/repo/src");
 */
export async function walkTree(base: string, options: WalkOptions = {}): Promise<WalkEntry[]> {
  const out: WalkEntry[] = [];
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const collect = options.collect ?? true;
  const caches = options.caches ?? new SearchCaches();
  const stack: Array<{ directory: string; relative: string; depth: number; rules: DirectoryRules }> = [
    { directory: base, relative: "", depth: 1, rules: ancestorRules(base, caches, options.ignoreBoundary) },
  ];
  let visited = 0;
  while (stack.length) {
    const { directory, relative, depth, rules: inherited } = stack.pop()!;
    if (++visited % 256 === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(directory, { withFileTypes: true });
    } catch {
      continue; // unreadable directories are skipped, as ripgrep does
    }
    options.onDirectory?.(relative);
    const rules = hasIgnoreFiles(entries)
      ? withOwnLayers(
          inherited,
          directoryLayers(directory, (name) => entries.some((entry) => entry.name === name), caches),
          caches,
        )
      : inherited;
    const checked = rules.layers.length > 0;
    const prefix = relative === "" ? "" : `${relative}/`;
    const absolutePrefix = directory.endsWith("/") ? directory : `${directory}/`;
    for (const entry of entries) {
      const name = entry.name;
      const isDirectory = entry.isDirectory();
      if (isDirectory && name === ".git") continue;
      // The file tools' own in-flight temporary and lock files (a crashed writer's leftovers included).
      if (name.charCodeAt(0) === 46 /* "." */ && !isDirectory && isToolSidecarName(name)) continue;
      if (checked && isEntryIgnored(rules, name, isDirectory, caches)) continue;
      const childRelative = prefix + name;
      if (isDirectory && options.exclude?.has(childRelative)) continue;
      if (isDirectory) {
        if (options.includeAll && collect) out.push({ relativePath: childRelative, kind: "directory", depth });
        if (depth < maxDepth)
          stack.push({
            directory: absolutePrefix + name,
            relative: childRelative,
            depth: depth + 1,
            rules: checked ? enterDirectory(rules, name, caches) : rules,
          });
      } else if (entry.isFile()) {
        if (collect) out.push({ relativePath: childRelative, kind: "file", depth });
        options.onFile?.(childRelative);
      } else if (entry.isSymbolicLink() && options.includeAll && collect) {
        out.push({ relativePath: childRelative, kind: "symlink", depth });
      }
    }
  }
  return out;
}

/** Whether a directory's entries include an ignore file or a `.git` (whose info/exclude counts). */
function hasIgnoreFiles(entries: readonly Dirent[]): boolean {
  for (const entry of entries) {
    const name = entry.name;
    if (name.charCodeAt(0) !== 46 /* "." */) continue;
    if (name === ".git" || (DIRECTORY_IGNORE_FILES as readonly string[]).includes(name)) return true;
  }
  return false;
}

/** Joins a display base (".", "src", "root://docs/") with a relative path. */
export function joinDisplay(base: string, relative: string): string {
  if (base === "." || base === "") return relative;
  if (relative === "") return base;
  return base.endsWith("/") ? base + relative : `${base}/${relative}`;
}

/** Stable path order used by every listing tool (UTF-16 code unit order). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
