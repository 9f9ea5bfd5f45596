/**
 * Starts, kills and restarts the DBOS tool host as a child process and
 * reads what its tools did, for tests and fault-injection benches.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { type DbosToolHostConfig, type DbosToolHostResult, RESULTS_FILE } from "./dbos-tool-host.js";
import { APPENDED_FILE, RUNS_FILE } from "./host-tools.js";

/** Options of {@link startDbosToolHost}. */
export interface DbosToolHostStartOptions {
  /**
   * The host script: a module that calls `runDbosToolHostProcess(openLedger)`
   * (absolute path; `.ts` runs under tsx with the `@agent-tools/source`
   * condition, anything else under plain node).
   */
  readonly hostScript: string;
  /** The child's working directory (where `tsx` resolves when running from sources); default `process.cwd()`. */
  readonly cwd?: string;
  /** Every progress line (without the `host ` prefix), as it arrives. */
  readonly onLine?: (line: string) => void;
}

/** A running host process. */
export interface DbosToolHostProcess {
  readonly child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** The progress lines so far. */
  lines(): readonly string[];
  /** What the child wrote on stderr so far. */
  errors(): string;
  /** Resolves when a progress line matches (now or later); rejects when the host exits first or after `timeoutMs` (default 60 s). */
  waitForLine(match: string | RegExp, timeoutMs?: number): Promise<string>;
  /** SIGKILL, then waits for the exit. */
  kill(): Promise<void>;
}

function hostCommand(script: string): string[] {
  return script.endsWith(".ts") ? ["--import", "tsx", "--conditions=@agent-tools/source", script] : [script];
}

function matches(line: string, match: string | RegExp): boolean {
  return typeof match === "string" ? line === match : match.test(line);
}

/**
 * Starts the DBOS tool host on `config` (see `DbosToolHostConfig`). Start it
 * again with the same config after a kill to resume: DBOS recovers the
 * workflow at launch.
 *
 * @example
 * const host = startDbosToolHost(config, { hostScript });
 * await host.waitForLine(/^holding /);
 * await host.kill();
 * const resumed = startDbosToolHost(config, { hostScript });
 * expect(await resumed.exited).toBe(0);
 */
export function startDbosToolHost(config: DbosToolHostConfig, options: DbosToolHostStartOptions): DbosToolHostProcess {
  if (typeof options?.hostScript !== "string" || !path.isAbsolute(options.hostScript)) {
    throw new SdkError("invalid_options", "startDbosToolHost: `hostScript` must be the absolute path of a script calling runDbosToolHostProcess.", {
      option: "hostScript",
    });
  }
  const child = spawn(process.execPath, [...hostCommand(options.hostScript), JSON.stringify(config)], {
    cwd: options.cwd ?? process.cwd(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let pending = "";
  let errors = "";
  child.stdout!.setEncoding("utf8");
  child.stderr!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    pending += chunk;
    const parts = pending.split("\n");
    pending = parts.pop() ?? "";
    for (const part of parts) {
      if (!part.startsWith("host ")) continue;
      const line = part.slice("host ".length);
      lines.push(line);
      options.onLine?.(line);
    }
    for (const waiter of waiters) waiter();
  });
  child.stderr!.on("data", (chunk: string) => {
    errors += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let done = false;
  void exited.then(() => {
    done = true;
    for (const waiter of waiters) waiter();
  });
  return {
    child,
    exited,
    lines: () => lines,
    errors: () => errors,
    waitForLine(match, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`no host line matching ${String(match)} within ${timeoutMs} ms; lines: ${lines.join(" | ")}; stderr: ${errors}`)),
          timeoutMs,
        );
        const finish = (error?: Error, line?: string) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve(line as string);
        };
        const check = () => {
          const line = lines.find((candidate) => matches(candidate, match));
          if (line !== undefined) finish(undefined, line);
          else if (done) finish(new Error(`the host exited before a line matching ${String(match)}; lines: ${lines.join(" | ")}; stderr: ${errors}`));
        };
        waiters.add(check);
        check();
      });
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** What the host's tools did in a workdir, over every host process so far. */
export interface DbosToolHostEffects {
  /** Tool runs per call id (every tool logs each run before its effect). */
  readonly runs: ReadonlyMap<string, number>;
  /** Lines `AppendLine` appended per call id (its unsafe effect). */
  readonly appended: ReadonlyMap<string, number>;
}

function countFirstWords(file: string, wordIndex: number): Map<string, number> {
  const counts = new Map<string, number>();
  if (!existsSync(file)) return counts;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const word = line.split(" ")[wordIndex];
    if (line === "" || word === undefined) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
}

/** Reads the run and append counts of the host's tools in `workdir`. */
export function readDbosToolHostEffects(workdir: string): DbosToolHostEffects {
  return { runs: countFirstWords(path.join(workdir, RUNS_FILE), 1), appended: countFirstWords(path.join(workdir, APPENDED_FILE), 0) };
}

/** The results the host's workflow returned (written when it finished), or undefined before. */
export function readDbosToolHostResults(workdir: string): DbosToolHostResult[] | undefined {
  const file = path.join(workdir, RESULTS_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as DbosToolHostResult[]) : undefined;
}

/** Starts the host and waits for it to finish; rejects with its stderr when it exits otherwise than 0. */
export async function runDbosToolHostToEnd(config: DbosToolHostConfig, options: DbosToolHostStartOptions): Promise<DbosToolHostResult[]> {
  const host = startDbosToolHost(config, options);
  const code = await host.exited;
  const results = readDbosToolHostResults(config.workdir);
  if (code !== 0 || results === undefined) throw new SdkError("unsupported", `The DBOS tool host exited ${code}: ${host.errors()}`);
  return results;
}
