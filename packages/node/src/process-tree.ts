import { readFileSync, readdirSync } from "node:fs";

/**
 * The environment variable every process started by the SDK's runner carries.
 * Descendants inherit it, so a process that left the group (setsid, double
 * fork) is still found by scanning `/proc/<pid>/environ`.
 */
export const PROCESS_TREE_TAG_VARIABLE = "AGENT_TOOLS_PROCESS_TREE";

/** One row of the process table, read from `/proc/<pid>/stat`. */
export interface ProcessInfo {
  readonly pid: number;
  readonly parentPid: number;
  readonly processGroupId: number;
  readonly sessionId: number;
  /** The one-letter state; `Z` (zombie) and `X` (dead) count as ended. */
  readonly state: string;
}

/** Which processes make up one tree. */
export interface ProcessTreeSelector {
  /** The root pid; it is also the group and session id of the tree (spawned with `detached`). */
  readonly rootPid: number;
  /** The value of {@link PROCESS_TREE_TAG_VARIABLE} the tree's processes inherited. */
  readonly tag?: string;
}

function parseStat(pid: number, text: string): ProcessInfo | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const fields = text.slice(close + 2).split(" ");
  return {
    pid,
    state: fields[0] ?? "?",
    parentPid: Number(fields[1]),
    processGroupId: Number(fields[2]),
    sessionId: Number(fields[3]),
  };
}

/** Reads one process's row; undefined when it does not exist. */
export function readProcessInfo(pid: number): ProcessInfo | undefined {
  try {
    return parseStat(pid, readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}

/** Reads the process table from `/proc` (empty where `/proc` is missing). */
export function readProcessTable(): ProcessInfo[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const table: ProcessInfo[] = [];
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const info = readProcessInfo(Number(entry));
    if (info) table.push(info);
  }
  return table;
}

/** The tree tag a process inherited, if any (undefined when unreadable). */
export function readProcessTreeTag(pid: number): string | undefined {
  let environ: Buffer;
  try {
    environ = readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
  const key = Buffer.from(`${PROCESS_TREE_TAG_VARIABLE}=`);
  let at = environ.indexOf(key);
  while (at > 0 && environ[at - 1] !== 0) at = environ.indexOf(key, at + 1);
  if (at < 0) return undefined;
  const end = environ.indexOf(0, at);
  return environ.subarray(at + key.length, end < 0 ? environ.length : end).toString("utf8");
}

/** True when a process exists and is not a zombie (PID 1 here may not reap). */
export function isProcessAlive(pid: number): boolean {
  const info = readProcessInfo(pid);
  if (info) return info.state !== "Z" && info.state !== "X";
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every live (non-zombie) process of a tree: members of the root's group or
 * session, processes carrying the tree's tag (those that left via setsid or a
 * double fork), and every descendant of any of them by parent pid.
 */
export function findProcessTree(selector: ProcessTreeSelector, table: readonly ProcessInfo[] = readProcessTable()): number[] {
  return findProcessTrees([selector], table).get(selector.rootPid) ?? [];
}

/**
 * {@link findProcessTree} for many trees with one pass over the process
 * table (each environment is read at most once). Keyed by root pid.
 */
export function findProcessTrees(selectors: readonly ProcessTreeSelector[], table: readonly ProcessInfo[] = readProcessTable()): Map<number, number[]> {
  const byRoot = new Map<number, ProcessTreeSelector>();
  const byTag = new Map<string, ProcessTreeSelector>();
  for (const selector of selectors) {
    if (selector.rootPid <= 0) continue;
    byRoot.set(selector.rootPid, selector);
    if (selector.tag !== undefined) byTag.set(selector.tag, selector);
  }
  const members = new Map<number, Set<number>>();
  for (const root of byRoot.keys()) members.set(root, new Set());
  const children = new Map<number, number[]>();
  for (const info of table) {
    if (info.pid === process.pid || info.pid === 1) continue;
    const siblings = children.get(info.parentPid);
    if (siblings) siblings.push(info.pid);
    else children.set(info.parentPid, [info.pid]);
    const direct = byRoot.get(info.pid) ?? byRoot.get(info.processGroupId) ?? byRoot.get(info.sessionId);
    if (direct) {
      members.get(direct.rootPid)!.add(info.pid);
      continue;
    }
    if (byTag.size === 0) continue;
    const tag = readProcessTreeTag(info.pid);
    const tagged = tag === undefined ? undefined : byTag.get(tag);
    if (tagged) members.get(tagged.rootPid)!.add(info.pid);
  }
  const dead = new Set(table.filter((info) => info.state === "Z" || info.state === "X").map((info) => info.pid));
  const result = new Map<number, number[]>();
  for (const [root, set] of members) {
    const queue = [...set];
    while (queue.length > 0) {
      const pid = queue.pop()!;
      for (const child of children.get(pid) ?? []) {
        if (!set.has(child)) {
          set.add(child);
          queue.push(child);
        }
      }
    }
    result.set(
      root,
      [...set].filter((pid) => !dead.has(pid)),
    );
  }
  return result;
}

/** Live (non-zombie) members of a process group. */
export function processGroupMembers(processGroupId: number): number[] {
  return readProcessTable()
    .filter((info) => info.processGroupId === processGroupId && info.state !== "Z" && info.state !== "X")
    .map((info) => info.pid);
}

/** True while any non-zombie process of the group is alive. */
export function isProcessGroupAlive(processGroupId: number): boolean {
  return processGroupMembers(processGroupId).length > 0;
}

/** True while any process of the tree is alive. */
export function isProcessTreeAlive(selector: ProcessTreeSelector): boolean {
  if (readProcessTable().length === 0) return isProcessAlive(selector.rootPid);
  return findProcessTree(selector).length > 0;
}
