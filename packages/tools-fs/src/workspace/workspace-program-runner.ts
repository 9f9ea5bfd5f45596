/**
 * A ProgramRunner over a workspace's ProcessRunner, so that the local
 * ripgrep code (its argument builders, runs and output parsers) runs `rg`
 * in the workspace: arguments go as an argv (never a shell line built from
 * them), output comes through the process's pipe.
 */
import type { ProcessRunner, ProgramExit, ProgramRun, ProgramRunOptions, ProgramRunner } from "@agent-tools/core";

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
 */
export function workspaceProgramRunner(processes: ProcessRunner): ProgramRunner {
  return {
    run(options: ProgramRunOptions): ProgramRun {
      const onStdout = options.stdout;
      if (typeof onStdout !== "function") throw new Error("A workspace's programs write to a pipe, not to a descriptor of this machine.");
      const child = processes.spawn({ command: options.command, args: options.args, cwd: options.cwd });
      let printed = false;
      const stderr: Buffer[] = [];
      child.onOutput((chunk) => {
        if (chunk.stream === "stdout") {
          printed = true;
          onStdout(chunk.data);
        } else {
          if (stderr.length < 16) stderr.push(chunk.data);
          options.stderr?.(chunk.data);
        }
      });
      const finished = (async (): Promise<ProgramExit> => {
        const exit = await child.exited;
        await child.outputClosed;
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
