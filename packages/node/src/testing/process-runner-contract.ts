import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ProcessOutputChunk, ProcessRunner, RunningProcess } from "@agent-tools/core";
import { isProcessAlive, readProcessInfo } from "../process-tree.js";
import type { ProcessScript } from "@agent-tools/core/testing";
import { runProcessRunnerStdinContract, stdinContractScript } from "./process-runner-stdin-contract.js";

/** Commands the contract suite runs (through `/bin/sh -c` on a real runner). */
export const PROCESS_RUNNER_CONTRACT_COMMANDS = {
  output: "printf out; printf err >&2; exit 3",
  echoInput: "cat",
  longRunning: "sleep 30",
  environment: 'printf "%s|%s" "$PWD" "$CONTRACT_VALUE"',
} as const;

/**
 * A {@link ProcessScript} that plays the contract suite's commands, so
 * `new ScriptedProcessRunner(processRunnerContractScript)` passes the suite.
 */
export const processRunnerContractScript: ProcessScript = async (process) => {
  const piped = stdinContractScript(process);
  if (piped) return piped;
  const { command, input, cwd, env } = process.options;
  const commands = PROCESS_RUNNER_CONTRACT_COMMANDS;
  if (command === commands.output) {
    process.write("stdout", "out");
    process.write("stderr", "err");
    process.exit(3);
  } else if (command === commands.echoInput) {
    process.write("stdout", input ?? "");
    process.exit(0);
  } else if (command === commands.longRunning) {
    await process.sleep(30_000);
    process.exit(0);
  } else if (command === commands.environment) {
    process.write("stdout", `${cwd}|${env?.CONTRACT_VALUE ?? ""}`);
    process.exit(0);
  } else {
    process.write("stderr", `${command}: not found\n`);
    process.exit(127);
  }
};

/** Options of {@link runProcessRunnerContract}. */
export interface ProcessRunnerContractOptions {
  /**
   * Run the process-tree cases (real OS processes: a tree of `treeSize`
   * descendants, one ignoring SIGTERM, one in its own session, one double
   * forked). Default false.
   */
  tree?: boolean;
  /** Descendants in the tree cases; default 24. */
  treeSize?: number;
  /**
   * Makes the folders the cases use as cwd, pid-file and log folder; default
   * a fresh folder under `os.tmpdir()`. A runner whose processes run as
   * another account (an SSH server's) passes folders that account can
   * write. The suite removes them afterwards.
   */
  makeTempDir?: () => string;
  /**
   * Awaited before the tree cases read `livePids()`: a runner that answers it
   * from a cached picture of a remote process table refreshes it here.
   */
  beforeTreeQuery?: (child: RunningProcess) => Promise<void>;
  /** Run the stdin back-pressure case (see `runProcessRunnerStdinContract`); default true, false for a fake runner. */
  stdinBackPressure?: boolean;
}

function collect(child: RunningProcess): { stdout: () => string; stderr: () => string; chunks: ProcessOutputChunk[] } {
  const chunks: ProcessOutputChunk[] = [];
  child.onOutput((chunk) => chunks.push(chunk));
  const join = (stream: string) => Buffer.concat(chunks.filter((c) => c.stream === stream).map((c) => c.data)).toString("utf8");
  return { stdout: () => join("stdout"), stderr: () => join("stderr"), chunks };
}

/**
 * The shell script of the tree cases: `size` descendants (one ignores
 * SIGTERM, one calls setsid, one is double forked into its own session and reparented), each
 * writing its pid into `<pidDir>/<name>.pid`.
 */
export function processTreeScript(pidDir: string, size: number): string {
  const plain = Math.max(1, size - 3);
  return [
    `cd '${pidDir}'`,
    `i=0; while [ $i -lt ${plain} ]; do i=$((i+1)); sh -c 'echo $$ > plain-'$i'.pid; exec sleep 300' & done`,
    `sh -c 'trap "" TERM; echo $$ > ignores-term.pid; exec sleep 300' &`,
    `setsid sh -c 'echo $$ > own-session.pid; exec sleep 300' &`,
    `sh -c "setsid sh -c 'echo \\$\\$ > double-fork.pid; exec sleep 300' & exit 0" &`,
    "wait",
  ].join("\n");
}

/** Waits until `count` pid files exist in `pidDir` and returns their pids. */
export async function waitForPidFiles(pidDir: string, count: number, timeoutMs = 20_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // The folder may not exist yet (a host process makes it after starting its first tree): keep waiting.
    const files = existsSync(pidDir) ? readdirSync(pidDir).filter((name) => name.endsWith(".pid")) : [];
    const pids = files.map((name) => Number(readFileSync(path.join(pidDir, name), "utf8").trim())).filter((pid) => pid > 0);
    if (pids.length >= count) return pids;
    if (Date.now() > deadline) throw new Error(`only ${pids.length} of ${count} processes started`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The contract every {@link ProcessRunner} must meet, as a vitest suite
 * (with the `stdin: "pipe"` cases of `runProcessRunnerStdinContract`).
 *
 * @example
 * runProcessRunnerContract("execa", () => new ExecaProcessRunner(), { tree: true });
 * runProcessRunnerContract("scripted", () => new ScriptedProcessRunner(processRunnerContractScript));
 */
export function runProcessRunnerContract(name: string, createRunner: () => ProcessRunner, options: ProcessRunnerContractOptions = {}): void {
  runProcessRunnerStdinContract(name, createRunner, options.stdinBackPressure === false ? { backPressure: false } : {});
  describe(`ProcessRunner contract: ${name}`, () => {
    const runners: ProcessRunner[] = [];
    const directories: string[] = [];
    const make = () => {
      const runner = createRunner();
      runners.push(runner);
      return runner;
    };
    const tempDir = () => {
      const dir = options.makeTempDir?.() ?? realpathSync(mkdtempSync(path.join(os.tmpdir(), "process-contract-")));
      directories.push(dir);
      return dir;
    };
    afterEach(async () => {
      await Promise.all(runners.splice(0).map((runner) => runner.close()));
      for (const dir of directories.splice(0)) rmSync(dir, { recursive: true, force: true });
    });

    it("streams stdout and stderr as Buffers and reports the exit code", async () => {
      const child = make().spawn({ command: PROCESS_RUNNER_CONTRACT_COMMANDS.output, shell: true, cwd: os.tmpdir() });
      const output = collect(child);
      const exit = await child.exited;
      await child.outputClosed;
      expect(exit).toEqual({ exitCode: 3, signal: null });
      expect(output.stdout()).toBe("out");
      expect(output.stderr()).toBe("err");
      expect(output.chunks.every((chunk) => Buffer.isBuffer(chunk.data))).toBe(true);
      expect(child.pid).toBeGreaterThan(0);
    });

    it("writes input to stdin and closes it", async () => {
      const child = make().spawn({ command: PROCESS_RUNNER_CONTRACT_COMMANDS.echoInput, shell: true, cwd: os.tmpdir(), input: "hello\n" });
      const output = collect(child);
      expect((await child.exited).exitCode).toBe(0);
      await child.outputClosed;
      expect(output.stdout()).toBe("hello\n");
    });

    it("runs in cwd with the given environment", async () => {
      const cwd = tempDir();
      const child = make().spawn({ command: PROCESS_RUNNER_CONTRACT_COMMANDS.environment, shell: true, cwd, env: { CONTRACT_VALUE: "v1" } });
      const output = collect(child);
      await child.exited;
      await child.outputClosed;
      expect(output.stdout()).toBe(`${cwd}|v1`);
    });

    it("appends output to logFile instead of streaming it", async () => {
      const dir = tempDir();
      const logFile = path.join(dir, "out.log");
      const child = make().spawn({ command: PROCESS_RUNNER_CONTRACT_COMMANDS.output, shell: true, cwd: dir, logFile });
      const output = collect(child);
      expect((await child.exited).exitCode).toBe(3);
      await child.outputClosed;
      expect(readFileSync(logFile, "utf8")).toBe("outerr");
      expect(output.chunks).toEqual([]);
    });

    it("reports a command that cannot start as exit code 127", async () => {
      const child = make().spawn({ command: "/nonexistent/agent-tools-contract-binary", cwd: os.tmpdir() });
      expect((await child.exited).exitCode).toBe(127);
    });

    it("kill() ends a long-running process and resolves when nothing is left", async () => {
      const child = make().spawn({ command: PROCESS_RUNNER_CONTRACT_COMMANDS.longRunning, shell: true, cwd: os.tmpdir() });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(child.isTreeAlive()).toBe(true);
      await child.kill();
      const exit = await child.exited;
      expect(exit.exitCode).not.toBe(0);
      expect(child.isTreeAlive()).toBe(false);
      expect(child.livePids()).toEqual([]);
      await child.kill();
    });

    it("an aborted signal kills the process", async () => {
      const controller = new AbortController();
      const child = make().spawn({ command: PROCESS_RUNNER_CONTRACT_COMMANDS.longRunning, shell: true, cwd: os.tmpdir(), signal: controller.signal });
      setTimeout(() => controller.abort(), 30);
      const exit = await child.exited;
      expect(exit.exitCode === null || exit.exitCode !== 0).toBe(true);
    });

    it("close() kills every running process and refuses later spawns", async () => {
      const runner = make();
      const child = runner.spawn({ command: PROCESS_RUNNER_CONTRACT_COMMANDS.longRunning, shell: true, cwd: os.tmpdir() });
      await new Promise((resolve) => setTimeout(resolve, 30));
      await runner.close();
      await child.exited;
      expect(child.isTreeAlive()).toBe(false);
      expect(() => runner.spawn({ command: PROCESS_RUNNER_CONTRACT_COMMANDS.output, shell: true, cwd: os.tmpdir() })).toThrow();
    });

    if (!options.tree) return;
    const size = Math.max(20, options.treeSize ?? 24);

    it(`kill() ends a tree of ${size} descendants, one ignoring SIGTERM, one in its own session, one double forked`, async () => {
      const pidDir = tempDir();
      const child = make().spawn({ command: processTreeScript(pidDir, size), shell: "/bin/sh", cwd: pidDir });
      const pids = await waitForPidFiles(pidDir, size);
      expect(pids.every((pid) => isProcessAlive(pid))).toBe(true);
      const escaped = readProcessInfo(Number(readFileSync(path.join(pidDir, "double-fork.pid"), "utf8")));
      expect(escaped?.sessionId).not.toBe(child.pid);
      expect(escaped?.processGroupId).not.toBe(child.pid);
      await options.beforeTreeQuery?.(child);
      const tracked = new Set(child.livePids());
      for (const pid of pids) expect(tracked.has(pid)).toBe(true);
      await child.kill();
      expect(pids.filter((pid) => isProcessAlive(pid))).toEqual([]);
      expect(child.livePids()).toEqual([]);
    });

    it("close() ends the trees of processes whose main process already exited", async () => {
      const pidDir = tempDir();
      const runner = make();
      const script = `cd '${pidDir}'; setsid sh -c 'echo $$ > left.pid; exec sleep 300' > /dev/null 2>&1 & sh -c 'echo $$ > kept.pid; exec sleep 300' > /dev/null 2>&1 & exit 0`;
      const child = runner.spawn({ command: script, shell: "/bin/sh", cwd: pidDir });
      expect((await child.exited).exitCode).toBe(0);
      const pids = await waitForPidFiles(pidDir, 2);
      expect(pids.every((pid) => isProcessAlive(pid))).toBe(true);
      await runner.close();
      expect(pids.filter((pid) => isProcessAlive(pid))).toEqual([]);
    });
  });
}
