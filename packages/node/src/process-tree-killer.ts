import { type ProcessTreeSelector, findProcessTrees, readProcessTable } from "./process-tree.js";

interface KillRequest {
  readonly selector: ProcessTreeSelector;
  /** When SIGKILL starts. */
  readonly killAt: number;
  /** When the request gives up (a process that survives SIGKILL, e.g. in uninterruptible sleep). */
  readonly giveUpAt: number;
  readonly signalled: Set<number>;
  readonly resolve: () => void;
}

const POLL_MS = 25;
const GIVE_UP_AFTER_KILL_MS = 5_000;

/**
 * Ends process trees: SIGTERM to the group and to every member (members found
 * later get it too), a grace period polled every 25 ms, then SIGKILL until
 * nothing of the tree is alive. Concurrent requests share one loop and one
 * `/proc` scan per poll, so ending 64 sessions at once costs about what ending
 * one does.
 *
 * @example
 * const killer = new ProcessTreeKiller();
 * await killer.kill({ rootPid: child.pid, tag }, 300);
 */
export class ProcessTreeKiller {
  private readonly requests = new Set<KillRequest>();
  private looping = false;

  /** Resolves once no process of the tree is alive (or after about 5 s of SIGKILL attempts). */
  kill(selector: ProcessTreeSelector, graceMs = 300): Promise<void> {
    if (selector.rootPid <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const now = Date.now();
      const request: KillRequest = { selector, killAt: now + graceMs, giveUpAt: now + graceMs + GIVE_UP_AFTER_KILL_MS, signalled: new Set(), resolve };
      send(-selector.rootPid, "SIGTERM");
      this.requests.add(request);
      if (!this.looping) void this.loop();
    });
  }

  private async loop(): Promise<void> {
    this.looping = true;
    try {
      let first = true;
      while (this.requests.size > 0) {
        if (!first) await sleep(POLL_MS);
        first = false;
        const requests = [...this.requests];
        const trees = findProcessTrees(
          requests.map((request) => request.selector),
          readProcessTable(),
        );
        const now = Date.now();
        for (const request of requests) {
          const alive = trees.get(request.selector.rootPid) ?? [];
          if (alive.length === 0 || now >= request.giveUpAt) {
            this.requests.delete(request);
            request.resolve();
            continue;
          }
          if (now < request.killAt) {
            for (const pid of alive) {
              if (request.signalled.has(pid)) continue;
              request.signalled.add(pid);
              send(pid, "SIGTERM");
            }
          } else {
            send(-request.selector.rootPid, "SIGKILL");
            for (const pid of alive) send(pid, "SIGKILL");
          }
        }
      }
    } finally {
      this.looping = false;
    }
  }
}

/**
 * Ends one tree (see {@link ProcessTreeKiller}). Accepts a bare process-group
 * id for compatibility.
 */
export function killProcessTree(selector: ProcessTreeSelector | number, graceMs = 300): Promise<void> {
  return new ProcessTreeKiller().kill(typeof selector === "number" ? { rootPid: selector } : selector, graceMs);
}

function send(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone, or not ours
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
