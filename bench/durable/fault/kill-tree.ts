/**
 * SIGKILL of a host and everything it started, as a crash of the machine's
 * process would look to the files: the host's process group and every
 * descendant, including the Bash tool's children, which run in process
 * groups of their own. Descendants are found through /proc (Linux); they
 * are stopped first (SIGSTOP) so none forks a child the second look misses,
 * then killed together.
 */
import { readFileSync, readdirSync } from "node:fs";

/** Parent pid of every process, from /proc/<pid>/stat. */
function parentsByPid(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The command name (field 2) may hold spaces and parentheses: fields after its last ")".
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(name), Number(fields[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  return parents;
}

/** The pids below `root` (not `root` itself). */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, parent] of parentsByPid()) {
    const list = children.get(parent) ?? [];
    list.push(pid);
    children.set(parent, list);
  }
  const found: number[] = [];
  const queue = [root];
  for (let index = 0; index < queue.length; index += 1) {
    for (const child of children.get(queue[index] as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/**
 * Kills `hostPid` (started detached: its own process group), its group and
 * all its descendants with SIGKILL; answers how many processes were hit.
 */
export function killProcessTree(hostPid: number): number {
  const first = descendantsOf(hostPid);
  signal(-hostPid, "SIGSTOP");
  for (const pid of first) signal(pid, "SIGSTOP");
  const all = [...new Set([...first, ...descendantsOf(hostPid)])];
  signal(-hostPid, "SIGKILL");
  signal(hostPid, "SIGKILL");
  for (const pid of all) signal(pid, "SIGKILL");
  return all.length + 1;
}
