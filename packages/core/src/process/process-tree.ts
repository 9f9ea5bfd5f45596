import { readFileSync, readdirSync } from "node:fs";

/** True when a process exists and is not a zombie (PID 1 here may not reap). */
export function isProcessAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** Live (non-zombie) members of a process group. */
export function processGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return isProcessAlive(pgid) ? [pgid] : [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" || fields[0] === "X") continue;
      if (Number(fields[2]) === pgid) members.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return members;
}

/** True while any non-zombie process of the group is alive. */
export function isProcessGroupAlive(pgid: number): boolean {
  return processGroupMembers(pgid).length > 0;
}

/** SIGTERM to the group, poll every 25 ms up to `graceMs`, then SIGKILL; resolves when the group is gone. */
export async function killProcessTree(pgid: number, graceMs: number): Promise<void> {
  if (pgid <= 0) return;
  signalGroup(pgid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isProcessGroupAlive(pgid)) return;
    await sleep(25);
  }
  for (let attempt = 0; attempt < 40 && isProcessGroupAlive(pgid); attempt += 1) {
    signalGroup(pgid, "SIGKILL");
    await sleep(25);
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // group already gone
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
