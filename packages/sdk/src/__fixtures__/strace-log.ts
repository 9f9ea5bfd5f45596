/**
 * Reading the `strace -f -e trace=file,process` log of a registry scenario
 * (the strace tests of a registry on a non-local workspace).
 */
import path from "node:path";

/** Syscalls that change the file system (an `openat` counts when it writes or creates). */
const WRITING_SYSCALLS = new Set([
  ...["mkdir", "mkdirat", "unlink", "unlinkat", "rename", "renameat", "renameat2", "rmdir", "symlink", "symlinkat"],
  ...["link", "linkat", "chmod", "fchmodat", "chown", "fchownat", "lchown", "utimensat", "truncate", "creat"],
]);

/** One path syscall of the log. */
export interface TracedAccess {
  readonly call: string;
  /** The path, resolved against `cwd`. */
  readonly path: string;
  readonly writes: boolean;
  /** The tool call running then (from the scenario's markers). */
  readonly during: string;
}

/**
 * Every path syscall and every exec after `marker` (the scenario touches
 * `<marker>/<tool call>` before each call), leaving out the processes of
 * tsx's esbuild (the scenario's TypeScript loader, not the registry) and
 * their threads. Relative paths resolve against `cwd`.
 */
export function tracedAfter(trace: string, marker: string, cwd: string): { accesses: TracedAccess[]; execs: Array<{ file: string; during: string }> } {
  const accesses: TracedAccess[] = [];
  const execs: Array<{ file: string; during: string }> = [];
  const loader = new Set<string>();
  let started = false;
  let during = "start";
  for (const line of trace.split("\n")) {
    const pid = /^(\d+)\s/.exec(line)?.[1];
    if (pid === undefined) continue;
    // A clone reported whole, or resumed after strace split it (`<... clone3 resumed> ...) = 123`).
    const child = /^\d+\s+(?:(?:clone3?|fork|vfork)\(|<\.\.\. (?:clone3?|fork|vfork) resumed>).*\)\s+=\s+(\d+)$/.exec(line)?.[1];
    if (child !== undefined && loader.has(pid)) loader.add(child);
    if (/^\d+\s+execve\("[^"]*\/@esbuild\//.test(line)) loader.add(pid);
    if (loader.has(pid)) continue;
    const match = /^\d+\s+([a-z_0-9]+)\((?:AT_FDCWD, |-?\d+, )?"([^"]*)"(.*)$/.exec(line);
    if (match === null) continue;
    const [, call, target, rest] = match as unknown as [string, string, string, string];
    if (target.startsWith(marker)) {
      started = true;
      during = target.slice(marker.length + 1) || "start";
      continue;
    }
    if (!started) continue;
    if (call === "execve") {
      execs.push({ file: target, during });
      continue;
    }
    const writes = WRITING_SYSCALLS.has(call) || ((call === "openat" || call === "open") && /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/.test(rest));
    accesses.push({ call, path: path.resolve(cwd, target), writes, during });
  }
  return { accesses, execs };
}

/** Whether `child` is `parent` or below it. */
export const within = (parent: string, child: string) => child === parent || child.startsWith(`${parent}/`);
