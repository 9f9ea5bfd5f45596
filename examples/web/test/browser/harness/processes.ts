/**
 * Finding the processes a test's example started, through `/proc`: every
 * process whose working directory is inside the test's own temp workspace
 * belongs to that test (each test has a workspace of its own).
 */
import { readFileSync, readdirSync, readlinkSync } from "node:fs";
import path from "node:path";

/** One process found in `/proc`. */
export interface WorkspaceProcess {
  pid: number;
  /** The command line, arguments joined by spaces. */
  commandLine: string;
  /** The working directory. */
  cwd: string;
}

/**
 * The live processes whose working directory is `workdir` or below it.
 * Zombies count as dead (PID 1 in a container may never reap them).
 */
export function findWorkspaceProcesses(workdir: string): WorkspaceProcess[] {
  const root = path.resolve(workdir);
  const found: WorkspaceProcess[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      if (cwd !== root && !cwd.startsWith(`${root}${path.sep}`)) continue;
      if (!isProcessAlive(pid)) continue;
      const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
      found.push({ pid, commandLine, cwd });
    } catch {
      // The process ended while we looked, or belongs to another user.
    }
  }
  return found;
}

/** True while `pid` runs; a zombie (`Z`) or a dead process (`X`) is not alive. */
export function isProcessAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The state follows the command name, which is in parentheses and may contain spaces.
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}
