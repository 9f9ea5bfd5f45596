import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { PROCESS_TREE_TAG_VARIABLE } from "./process-tree.js";

// Blocks until the host closes the pipe (by exiting in any way, even SIGKILL),
// then ends every process whose environment carries one of this runner's
// tags: SIGTERM, a 300 ms grace, then SIGKILL a few times.
const SCRIPT = `
cat >/dev/null
find_tree() {
  grep -l -z -x -E "${PROCESS_TREE_TAG_VARIABLE}=$1\\.[0-9]+" /proc/[0-9]*/environ 2>/dev/null | sed 's#^/proc/\\([0-9]*\\)/environ$#\\1#'
}
pids=$(find_tree "$1")
[ -z "$pids" ] && exit 0
kill -TERM $pids 2>/dev/null
sleep 0.3
for round in 1 2 3 4 5 6 7 8; do
  pids=$(find_tree "$1")
  [ -z "$pids" ] && exit 0
  kill -KILL $pids 2>/dev/null
  sleep 0.05
done
`;

/**
 * A small detached `/bin/sh` process that ends a runner's processes when the
 * host goes away, however it goes (normal exit, crash, SIGKILL): it holds the
 * read end of a pipe whose write end only the host has.
 */
export class HostExitWatchdog {
  private child: ChildProcess | undefined;
  private started = false;

  constructor(private readonly tag: string) {}

  /** Starts the watchdog once; a no-op where `/bin/sh` or `/proc` is missing. */
  ensureStarted(): void {
    if (this.started) return;
    this.started = true;
    if (process.platform !== "linux" || !existsSync("/bin/sh") || !existsSync("/proc/self/environ")) return;
    try {
      const child = spawn("/bin/sh", ["-c", SCRIPT, "agent-tools-watchdog", this.tag], {
        detached: true,
        stdio: ["pipe", "ignore", "ignore"],
      });
      child.on("error", () => undefined);
      child.stdin?.on("error", () => undefined);
      child.unref();
      (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
      this.child = child;
    } catch {
      this.child = undefined;
    }
  }

  /** Stops the watchdog (after the runner has ended its processes itself). */
  stop(): void {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    child.stdin?.end();
  }
}
