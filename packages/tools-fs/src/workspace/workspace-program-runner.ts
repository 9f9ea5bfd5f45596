/**
 * A ProgramRunner over a workspace's ProcessRunner, so that the local
 * ripgrep code (its argument builders, runs and output parsers) runs `rg`
 * in the workspace: arguments go as an argv (never a shell line built from
 * them), output comes through the process's pipe.
 */
import type { ProcessRunner, ProgramExit, ProgramRun, ProgramRunOptions, ProgramRunner } from "@agent-tools/core";
import { WorkspaceError } from "@agent-tools/core/workspace";

/**
 * Enters the folder again with `cd -P`, prints where it really is (`pwd -P`,
 * then a NUL) and becomes the program: the runner compares that folder with
 * the one asked for before any output is used, so a folder swapped for a
 * symlink between the caller's containment check and the start is refused
 * (the program's working directory is held by the kernel from then on).
 */
const ANCHORED_START = 'cd -P -- "$1" || exit 126; pwd -P; printf "\\000"; shift; exec "$@"';

/** ripgrep could not be started in the workspace (no `rg` there after all): the caller falls back to the walk. */
export class RipgrepNotStartedError extends Error {
  constructor(detail: string) {
    super(`ripgrep could not be started in the workspace: ${detail}`);
    this.name = "RipgrepNotStartedError";
  }
}

/**
 * Runs programs through `processes` (a workspace's runner). `finished`
 * rejects with {@link RipgrepNotStartedError} when the program did not
 * start (exit 127 with no output: ripgrep itself never exits 127); stdout
 * must be a function (a workspace has no descriptor of this machine).
 * The program starts through `/bin/sh` (see `ANCHORED_START`): when the
 * folder it entered is not `cwd` (canonical: a swap raced in), it is killed
 * and `finished` rejects with `WorkspaceError("out_of_bounds")` before any
 * of its output was handed on.
 */
export function workspaceProgramRunner(processes: ProcessRunner): ProgramRunner {
  return {
    run(options: ProgramRunOptions): ProgramRun {
      const onStdout = options.stdout;
      if (typeof onStdout !== "function") throw new Error("A workspace's programs write to a pipe, not to a descriptor of this machine.");
      const child = processes.spawn({
        command: "/bin/sh",
        args: ["-c", ANCHORED_START, "agent-tools-start", options.cwd, options.command, ...options.args],
        cwd: options.cwd,
      });
      let printed = false;
      const stderr: Buffer[] = [];
      // The `pwd -P` line until its NUL; then the program's own output.
      let head: Buffer | undefined = Buffer.alloc(0);
      let swapped: WorkspaceError | undefined;
      child.onOutput((chunk) => {
        if (chunk.stream === "stdout") {
          let data = chunk.data;
          if (head !== undefined) {
            head = Buffer.concat([head, data]);
            const end = head.indexOf(0);
            if (end < 0) return;
            const entered = head.subarray(0, end).toString("utf8").replace(/\n$/, "");
            data = head.subarray(end + 1);
            head = undefined;
            if (entered !== options.cwd) {
              swapped = new WorkspaceError("out_of_bounds", `${options.cwd} was swapped while ${options.command} started there: it led to ${entered}.`, {
                path: options.cwd,
                operation: "search",
                canonicalPath: entered,
              });
              void child.kill({ graceMs: 0 }).catch(() => undefined);
            }
          }
          if (swapped || data.length === 0) return;
          printed = true;
          onStdout(data);
        } else {
          if (stderr.length < 16) stderr.push(chunk.data);
          options.stderr?.(chunk.data);
        }
      });
      const finished = (async (): Promise<ProgramExit> => {
        const exit = await child.exited;
        await child.outputClosed;
        if (swapped) throw swapped;
        if (exit.exitCode === 127 && !printed) {
          throw new RipgrepNotStartedError(exit.error ?? (Buffer.concat(stderr).toString("utf8").trim().slice(0, 500) || "exit 127"));
        }
        return { exitCode: exit.exitCode, signal: exit.signal as NodeJS.Signals | null };
      })();
      return {
        finished,
        kill: () => void child.kill({ graceMs: 0 }).catch(() => undefined),
      };
    },
  };
}
