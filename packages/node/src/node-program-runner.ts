import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import type { ProgramExit, ProgramRun, ProgramRunOptions, ProgramRunner } from "@agent-tools/core";

/**
 * The Node {@link ProgramRunner}: `child_process.spawn` with no shell, stdin
 * closed, stdout piped to the listener (or written straight into the given
 * descriptor), stderr piped to its listener (or ignored), and `kill` as an
 * immediate SIGKILL. It keeps no state, so one instance serves any number
 * of runs.
 *
 * @example
 * const run = new NodeProgramRunner().run({ command: "rg", args: ["--version"], cwd: "/", stdout: (chunk) => process.stdout.write(chunk) });
 * const { exitCode } = await run.finished;
 */
export class NodeProgramRunner implements ProgramRunner {
  run(options: ProgramRunOptions): ProgramRun {
    const { stdout } = options;
    const onStdout = typeof stdout === "function" ? stdout : undefined;
    const onStderr = options.stderr;
    const stdio: StdioOptions = ["ignore", typeof stdout === "number" ? stdout : "pipe", onStderr ? "pipe" : "ignore"];
    const child: ChildProcess = spawn(options.command, options.args, { cwd: options.cwd, stdio });
    if (onStdout) child.stdout?.on("data", onStdout);
    if (onStderr) child.stderr?.on("data", onStderr);
    const finished = new Promise<ProgramExit>((resolve, reject) => {
      // "close" may follow "error"; the promise is settled by then.
      child.on("error", reject);
      child.on("close", (exitCode, signal) => resolve({ exitCode, signal }));
    });
    return {
      finished,
      kill: () => {
        child.kill("SIGKILL");
      },
    };
  }
}
