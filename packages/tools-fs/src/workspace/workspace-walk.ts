/**
 * The ignore-aware walk of List, Glob and Grep through a workspace's file
 * system: the same ignore files (`.rgignore`, `.ignore`, `.gitignore`,
 * `.git/info/exclude`, those of parent directories up to the workspace's
 * root included), the same matcher and the same skipped entries (`.git`,
 * the tools' own temporary and lock files) as the local walk, so both list
 * the same files. Directories are read several at a time, since each read
 * may be a round trip to another machine.
 */
import { posix } from "node:path";
import { type WorkspaceDirectoryEntry, type WorkspaceFileSystem, isWithinWorkspacePath } from "@agent-tools/core/workspace";
import { isToolSidecarName } from "@agent-tools/file-io/internal";
import type { WalkEntry, WalkOptions } from "../search/file-walker.js";
import { DIRECTORY_IGNORE_FILES, type IgnoreLayer, layerOfRules } from "../search/ignore-layers.js";
import { type DirectoryRules, NO_RULES, enterDirectory, isEntryIgnored, withOwnLayers } from "../search/ignore-rules.js";
import { SearchCaches } from "../search/search-caches.js";

/** Directories read at the same time. */
const PARALLEL_READS = 8;

/** The text of an ignore file, when it is a regular file (a symlink is not followed out of the tree); else null. */
async function readIgnoreFile(fs: WorkspaceFileSystem, path: string): Promise<string | null> {
  try {
    if ((await fs.lstat(path)).type !== "file") return null;
    return (await fs.readFile(path)).toString("utf8");
  } catch {
    return null;
  }
}

/** The ignore layers a directory adds (as `directoryLayers` of the local walk), read through the workspace. */
async function workspaceDirectoryLayers(
  fs: WorkspaceFileSystem,
  directory: string,
  has: ((name: string) => boolean) | undefined,
  caches: SearchCaches,
): Promise<IgnoreLayer[]> {
  const layers: IgnoreLayer[] = [];
  for (const [category, name] of DIRECTORY_IGNORE_FILES.entries()) {
    if (has && !has(name)) continue;
    const layer = layerOfRules(directory, await readIgnoreFile(fs, posix.join(directory, name)), category, caches);
    if (layer) layers.push(layer);
  }
  if (!has || has(".git")) {
    const layer = layerOfRules(directory, await readIgnoreFile(fs, posix.join(directory, ".git", "info", "exclude")), 3, caches);
    if (layer) layers.push(layer);
  }
  return layers;
}

/** The rules in force in `base` from its ancestors down from the workspace's `root` (nothing above the root is read). */
async function workspaceAncestorRules(fs: WorkspaceFileSystem, root: string, base: string, caches: SearchCaches): Promise<DirectoryRules> {
  if (base === root || !isWithinWorkspacePath(root, base)) return NO_RULES;
  const ancestors: string[] = [];
  for (let current = posix.dirname(base); ; current = posix.dirname(current)) {
    ancestors.push(current);
    if (current === root || current === "/") break;
  }
  let rules = NO_RULES;
  for (let index = ancestors.length - 1; index >= 0; index -= 1) {
    rules = withOwnLayers(rules, await workspaceDirectoryLayers(fs, ancestors[index]!, undefined, caches), caches);
    rules = enterDirectory(rules, posix.basename(index === 0 ? base : ancestors[index - 1]!), caches);
  }
  return rules;
}

/** Whether a directory's entries include an ignore file or a `.git`. */
function hasIgnoreFiles(entries: readonly WorkspaceDirectoryEntry[]): boolean {
  return entries.some((entry) => entry.name === ".git" || (DIRECTORY_IGNORE_FILES as readonly string[]).includes(entry.name));
}

/** One directory waiting to be read. */
interface Pending {
  directory: string;
  relative: string;
  depth: number;
  rules: DirectoryRules;
}

/**
 * Walks `base` of a workspace as `walkTree` walks the local disk (same
 * options, same entries; unreadable directories skipped). `root`: the
 * workspace's root, the highest directory whose ignore files count.
 *
 * @example
 * const files = await walkWorkspaceTree(workspace.fs, workspace.root, "/repo/src");
 */
export async function walkWorkspaceTree(fs: WorkspaceFileSystem, root: string, base: string, options: WalkOptions = {}): Promise<WalkEntry[]> {
  const out: WalkEntry[] = [];
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const collect = options.collect ?? true;
  const caches = options.caches ?? new SearchCaches();
  const stack: Pending[] = [{ directory: base, relative: "", depth: 1, rules: await workspaceAncestorRules(fs, root, base, caches) }];
  const visit = async ({ directory, relative, depth, rules: inherited }: Pending) => {
    let entries: WorkspaceDirectoryEntry[];
    try {
      entries = await fs.readdir(directory);
    } catch {
      return; // unreadable directories are skipped, as ripgrep does
    }
    options.onDirectory?.(relative);
    const names = new Set(entries.map((entry) => entry.name));
    const rules = hasIgnoreFiles(entries)
      ? withOwnLayers(inherited, await workspaceDirectoryLayers(fs, directory, (name) => names.has(name), caches), caches)
      : inherited;
    const checked = rules.layers.length > 0;
    const prefix = relative === "" ? "" : `${relative}/`;
    for (const entry of entries) {
      const name = entry.name;
      const isDirectory = entry.type === "directory";
      if (isDirectory && name === ".git") continue;
      if (name.charCodeAt(0) === 46 /* "." */ && !isDirectory && isToolSidecarName(name)) continue;
      if (checked && isEntryIgnored(rules, name, isDirectory, caches)) continue;
      const childRelative = prefix + name;
      if (isDirectory && options.exclude?.has(childRelative)) continue;
      if (isDirectory) {
        if (options.includeAll && collect) out.push({ relativePath: childRelative, kind: "directory", depth });
        if (depth < maxDepth) {
          stack.push({
            directory: posix.join(directory, name),
            relative: childRelative,
            depth: depth + 1,
            rules: checked ? enterDirectory(rules, name, caches) : rules,
          });
        }
      } else if (entry.type === "file") {
        if (collect) out.push({ relativePath: childRelative, kind: "file", depth });
        options.onFile?.(childRelative);
      } else if (entry.type === "symlink" && options.includeAll && collect) {
        out.push({ relativePath: childRelative, kind: "symlink", depth });
      }
    }
  };
  // Up to PARALLEL_READS directories in flight; each finished one may push more.
  const running = new Set<Promise<void>>();
  while (stack.length > 0 || running.size > 0) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
    while (stack.length > 0 && running.size < PARALLEL_READS) {
      const task: Promise<void> = visit(stack.pop()!).finally(() => running.delete(task));
      running.add(task);
    }
    if (running.size > 0) await Promise.race(running);
  }
  return out;
}
