import { type Dirent, readdirSync } from "node:fs";
import { type IgnoreLayer, ancestorLayers, directoryLayers, isIgnored } from "./ignore-rules.js";

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
  /** Called with each file as soon as it is found (the result still lists it). */
  onFile?: (relativePath: string) => void;
}

/**
 * Walks `base` honouring `.gitignore`, `.ignore`, `.rgignore` and
 * `.git/info/exclude` (in or out of a git repository, including those of
 * parent directories), skipping `.git` directories and never following
 * symlinks. Dot-files are included. Matches what `rg --files --hidden
 * --no-require-git --no-ignore-global` lists.
 *
 * @example
 * const files = await walkTree("/repo/src");
 */
export async function walkTree(base: string, options: WalkOptions = {}): Promise<WalkEntry[]> {
  const out: WalkEntry[] = [];
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const stack: Array<{ directory: string; relative: string; depth: number; layers: IgnoreLayer[] }> = [
    { directory: base, relative: "", depth: 1, layers: ancestorLayers(base) },
  ];
  let visited = 0;
  while (stack.length) {
    const { directory, relative, depth, layers: inherited } = stack.pop()!;
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
    const names = new Set(entries.map((entry) => entry.name));
    const own = directoryLayers(directory, names);
    const layers = own.length ? [...own, ...inherited] : inherited;
    for (const entry of entries) {
      const name = entry.name;
      const isDirectory = entry.isDirectory();
      if (isDirectory && name === ".git") continue;
      const absolute = directory.endsWith("/") ? directory + name : `${directory}/${name}`;
      if (layers.length && isIgnored(layers, absolute, isDirectory)) continue;
      const childRelative = relative === "" ? name : `${relative}/${name}`;
      if (isDirectory) {
        if (options.includeAll) out.push({ relativePath: childRelative, kind: "directory", depth });
        if (depth < maxDepth) stack.push({ directory: absolute, relative: childRelative, depth: depth + 1, layers });
      } else if (entry.isFile()) {
        out.push({ relativePath: childRelative, kind: "file", depth });
        options.onFile?.(childRelative);
      } else if (entry.isSymbolicLink() && options.includeAll) {
        out.push({ relativePath: childRelative, kind: "symlink", depth });
      }
    }
  }
  return out;
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

