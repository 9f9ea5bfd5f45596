import { readFileSync } from "node:fs";

/**
 * The start time of a process in clock ticks since boot (field 22 of
 * `/proc/<pid>/stat`), or "" where that is unknown (no procfs) and null
 * when the process does not exist or is a zombie.
 */
export function processStartTime(pid: number): string | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ESRCH") return null;
    return "";
  }
  // The command name (field 2) may hold spaces and parentheses: split after its last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  if (fields[0] === "Z" || fields[0] === "X") return null;
  return fields[19] ?? "";
}

let ownStartTime: string | undefined;

/** This process's identity as lock files record it: `<pid> <start time>`. */
export function ownProcessIdentity(): string {
  ownStartTime ??= process.platform === "linux" ? (processStartTime(process.pid) ?? "") : "";
  return `${process.pid} ${ownStartTime}`;
}

/**
 * True when the process that wrote `identity` (`<pid> <start time>`) is gone:
 * no such pid, a zombie, or a pid reused by a process that started later.
 */
export function isProcessGone(identity: string): boolean {
  const [pidText, startTime = ""] = identity.trim().split(" ");
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return true;
  if (process.platform === "linux") {
    const current = processStartTime(pid);
    if (current === null) return true;
    return current !== "" && startTime !== "" && current !== startTime;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === "ESRCH";
  }
}
