/**
 * One host process as the harness sees it: started detached (its own process
 * group), its stdout read line by line (`ready`, `start <id>`, `done <id>`,
 * `finished`), waited on for a line or for its exit, and killed with its
 * whole tree.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { killProcessTree } from "./kill-tree.js";

/** How a host process ended. */
export interface HostExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The last lines of its stderr, for a report. */
  readonly stderrTail: string;
}

/** A started host process. */
export interface HostProcess {
  readonly pid: number;
  /** Resolves when `line` is printed, or with false when the process ends first. */
  waitForLine(line: string): Promise<boolean>;
  /** Resolves when the process has ended. */
  readonly exited: Promise<HostExit>;
  /** True once it printed `finished`. */
  finished(): boolean;
  /** SIGKILL of its tree; answers how many processes were signalled. */
  kill(): number;
}

/** What {@link startHostProcess} runs: a command line and its working directory. */
export interface HostCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** Starts the host; `onLine` sees each stdout line. */
export function startHostProcess(command: HostCommand, onLine?: (line: string) => void): HostProcess {
  const child: ChildProcess = spawn(command.command, [...command.args], {
    cwd: command.cwd,
    env: command.env ?? process.env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const seen = new Set<string>();
  const waiters = new Map<string, ((value: boolean) => void)[]>();
  let stderr = "";
  let pending = "";
  let ended = false;
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      seen.add(line);
      onLine?.(line);
      for (const resolve of waiters.get(line) ?? []) resolve(true);
      waiters.delete(line);
      newline = pending.indexOf("\n");
    }
  });
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<HostExit>((resolve) => {
    child.once("close", (code, signal) => {
      ended = true;
      for (const list of waiters.values()) for (const resolve of list) resolve(false);
      waiters.clear();
      resolve({ code, signal, stderrTail: stderr });
    });
  });
  if (child.pid === undefined) throw new Error(`could not start ${command.command}`);
  const pid = child.pid;
  return {
    pid,
    exited,
    finished: () => seen.has("finished"),
    waitForLine(line) {
      if (seen.has(line)) return Promise.resolve(true);
      if (ended) return Promise.resolve(false);
      return new Promise((resolve) => waiters.set(line, [...(waiters.get(line) ?? []), resolve]));
    },
    kill: () => killProcessTree(pid),
  };
}
