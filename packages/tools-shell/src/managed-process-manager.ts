import { randomUUID } from "node:crypto";
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type ProcessExit, type ProcessRunner, type RunningProcess, type SpawnOptions, ToolError } from "@agent-tools/core";
import { isProcessAlive, killProcessTree, readProcessTreeTag } from "@agent-tools/node/internal";
import type { DurableSessions } from "./durable/durable-sessions.js";
import { type ProcessLogRetention, pruneProcessLogs } from "./process-log-pruning.js";
import { incompleteUtf8Tail, leadingContinuationBytes } from "./utf8.js";

/** Grace between SIGTERM and SIGKILL for ManagedProcess stop. */
export const MANAGED_STOP_GRACE_MS = 500;
/** Grace when the bundle closes. */
export const MANAGED_SHUTDOWN_GRACE_MS = 1_200;
/** How often a wait checks the log and the process. */
const WAIT_POLL_MS = 100;

/** What is stored beside each log as `<id>.json`. */
export interface ManagedProcessRecord {
  process_id: string;
  pid: number;
  command: string;
  cwd: string;
  label?: string;
  isolated: boolean;
  started_at: string;
  log_path: string;
  /** The tree tag the process inherited, used to find its descendants later. */
  tree_tag?: string;
  /** The mechanism confining the process (e.g. `bubblewrap`); absent when it runs unconfined. */
  sandbox?: string;
  /**
   * The label of the non-local workspace the process runs on; its `pid` is
   * that machine's, so it is never looked up or signalled on this host.
   */
  workspace?: string;
  /**
   * Runs under a durable-session supervisor (the host's `durableSessions`):
   * its log, exit code and stop request live in `<durableSessions.dir>/managed-<process_id>/`.
   */
  durable?: true;
}

/** The state of a managed process as reported to the model. */
export interface ManagedProcessState extends ManagedProcessRecord {
  status: "running" | "exited" | "stopped";
  exit_code: number | null;
  log_bytes: number;
}

/** A piece of a log. */
export interface LogPage {
  output: string;
  /** Absolute log offset after the returned bytes. */
  cursor: number;
  /** Bytes in the log right now. */
  log_bytes: number;
  has_more: boolean;
}

interface LiveEntry {
  record: ManagedProcessRecord;
  process: RunningProcess;
  exit?: ProcessExit;
  stopped: boolean;
  /** Waits sleeping between polls; woken when the process exits. */
  wakers: Set<() => void>;
}

/** Options of {@link ManagedProcessManager.start}. */
export interface ManagedStartOptions {
  command: string;
  cwd: string;
  shell: string;
  label?: string;
  isolated: boolean;
  runner: ProcessRunner;
  dataDir: string;
  env?: Record<string, string>;
  /** `none` (default) or the mechanism confining the process; recorded when confined. */
  sandbox?: string;
  /**
   * The label of the non-local workspace `runner` starts the process on:
   * its output is streamed back and appended to the log here in `dataDir`
   * (the host's data), instead of a `logFile` the runner would write.
   */
  workspace?: string;
  /** Rewrites a spawn for the registry's sandbox (used for a durable start, which the supervisor spawns). */
  confine?: (options: SpawnOptions) => SpawnOptions;
}

/**
 * Long-running processes with their output in `<dataDir>/process-logs/<id>.log`
 * (also for a process on a non-local workspace: the log and its record are
 * the host's data, the output streamed back from the workspace).
 * Non-isolated ones end with the bundle (or the host); isolated ones may
 * outlive the host and stay manageable later through their `<id>.json`.
 * Finished entries are pruned (see {@link pruneProcessLogs}) the first time a
 * dataDir is used and after each process of this manager ends.
 */
export class ManagedProcessManager {
  private readonly live = new Map<string, LiveEntry>();
  private readonly preparedDataDirs = new Set<string>();
  private readonly retention: ProcessLogRetention;

  constructor(
    retention: ProcessLogRetention = {},
    private readonly durable?: DurableSessions,
  ) {
    this.retention = retention;
  }

  /**
   * With the host's `durableSessions`, on this machine: starts the process
   * under a supervisor (it outlives the host like an isolated one, and its
   * exit code stays known); otherwise {@link start}.
   */
  async startDurable(options: ManagedStartOptions): Promise<ManagedProcessRecord> {
    if (!this.durable || options.workspace !== undefined) return this.start(options);
    this.prepare(options.dataDir);
    const directory = logDirectory(options.dataDir);
    mkdirSync(directory, { recursive: true, mode: 0o700 }); // the output of the commands: the owner's alone
    const id = randomUUID();
    const launched = await this.durable.launchManaged(id, options);
    const record: ManagedProcessRecord = {
      process_id: id,
      pid: launched.pid,
      command: options.command,
      cwd: options.cwd,
      label: options.label,
      isolated: true,
      started_at: new Date(launched.startedAt).toISOString(),
      log_path: path.join(this.durable.managedDirectory(id), "output.log"),
      tree_tag: launched.tag,
      ...(options.sandbox !== undefined && options.sandbox !== "none" ? { sandbox: options.sandbox } : {}),
      durable: true,
    };
    writeFileSync(path.join(directory, `${id}.json`), `${JSON.stringify(record, null, 2)}\n`);
    return record;
  }

  /** Prunes `<dataDir>/process-logs` once per dataDir (the bundle's first use of it). */
  prepare(dataDir: string): void {
    if (this.preparedDataDirs.has(dataDir)) return;
    this.preparedDataDirs.add(dataDir);
    this.prune(dataDir);
  }

  /** Removes finished entries beyond the retention limits; never a running process's. Returns the removed ids. */
  prune(dataDir: string): string[] {
    return pruneProcessLogs(logDirectory(dataDir), this.retention, (id) => this.state(dataDir, id)?.status === "running");
  }

  /** Starts a process; its output goes to its log file. */
  start(options: ManagedStartOptions): ManagedProcessRecord {
    this.prepare(options.dataDir);
    const directory = logDirectory(options.dataDir);
    mkdirSync(directory, { recursive: true, mode: 0o700 }); // the output of the commands: the owner's alone
    const id = randomUUID();
    const logPath = path.join(directory, `${id}.log`);
    writeFileSync(logPath, "");
    const remote = options.workspace !== undefined;
    const child = options.runner.spawn({
      command: options.command,
      shell: options.shell,
      cwd: options.cwd,
      env: options.env,
      isolated: options.isolated,
      // logFile would be a path of the workspace: a remote process's output comes back through its pipes instead.
      ...(remote ? {} : { logFile: logPath }),
    });
    if (remote) child.onOutput((chunk) => appendToLog(logPath, chunk.data));
    const record: ManagedProcessRecord = {
      process_id: id,
      pid: child.pid,
      command: options.command,
      cwd: options.cwd,
      label: options.label,
      isolated: options.isolated,
      started_at: new Date().toISOString(),
      log_path: logPath,
      tree_tag: !remote && child.pid > 0 ? readProcessTreeTag(child.pid) : undefined,
      ...(options.sandbox !== undefined && options.sandbox !== "none" ? { sandbox: options.sandbox } : {}),
      ...(remote ? { workspace: options.workspace } : {}),
    };
    writeFileSync(path.join(directory, `${id}.json`), `${JSON.stringify(record, null, 2)}\n`);
    const entry: LiveEntry = { record, process: child, stopped: false, wakers: new Set() };
    void child.exited.then((exit) => {
      entry.exit = exit;
      for (const wake of [...entry.wakers]) wake();
      this.prune(options.dataDir);
    });
    this.live.set(id, entry);
    return record;
  }

  /**
   * Waits until a live process's runner knows its pid (a remote runner learns
   * it from the remote shell shortly after the start, and reads 0 until then)
   * or the process ended, at most `timeoutMs`; then writes the pid into its
   * record, so the start report and a later host's status name the real
   * process. Nothing to wait for on a local runner (its pid is known at spawn).
   */
  async learnPid(dataDir: string, processId: string, timeoutMs = 10_000): Promise<void> {
    const entry = this.live.get(processId);
    if (!entry || entry.record.pid > 0) return;
    const deadline = Date.now() + timeoutMs;
    while (entry.process.pid === 0 && entry.exit === undefined && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const pid = entry.process.pid;
    if (pid <= 0 || pid === entry.record.pid) return;
    entry.record = { ...entry.record, pid };
    writeFileSync(path.join(logDirectory(dataDir), `${processId}.json`), `${JSON.stringify(entry.record, null, 2)}\n`);
  }

  /** States of every known process (this host's and isolated ones on disk), or of one. */
  status(dataDir: string, processId?: string): ManagedProcessState[] {
    const ids = processId ? [processId] : this.knownIds(dataDir);
    return ids.map((id) => this.state(dataDir, id)).filter((state): state is ManagedProcessState => state !== undefined);
  }

  /** One process's state; throws `not_found` for an unknown id. */
  require(dataDir: string, processId: string): ManagedProcessState {
    const state = this.state(dataDir, processId);
    if (!state) {
      throw new ToolError("not_found", `managed process not found: ${processId}. Call ManagedProcess(action="status") to list known processes.`, {
        details: { process_id: processId, not_found: true },
      });
    }
    return state;
  }

  /** Reads up to `maxBytes` of the log from `cursor`, never splitting a UTF-8 character. */
  readLog(state: ManagedProcessRecord, cursor: number, maxBytes: number): LogPage {
    const size = fileSize(state.log_path);
    const from = Math.min(Math.max(0, Math.floor(cursor)), size);
    const length = Math.min(maxBytes, size - from);
    if (length <= 0) return { output: "", cursor: from, log_bytes: size, has_more: false };
    const buffer = Buffer.allocUnsafe(length);
    const fd = openSync(state.log_path, "r");
    let read = 0;
    try {
      read = readSync(fd, buffer, 0, length, from);
    } finally {
      closeSync(fd);
    }
    const skip = leadingContinuationBytes(buffer, 0, read);
    let end = read;
    if (from + end < size) end -= incompleteUtf8Tail(buffer, end);
    if (end < skip) end = skip;
    return { output: buffer.subarray(skip, end).toString("utf8"), cursor: from + end, log_bytes: size, has_more: from + end < size };
  }

  /** Waits until the process ended, `unreadBytes` are in the log after `cursor`, the time passed or `signal` aborted. */
  async wait(dataDir: string, processId: string, cursor: number, yieldMs: number, unreadBytes: number, signal: AbortSignal): Promise<ManagedProcessState> {
    const deadline = Date.now() + yieldMs;
    const entry = this.live.get(processId);
    for (;;) {
      const state = this.require(dataDir, processId);
      if (state.status !== "running" || state.log_bytes - cursor >= unreadBytes || Date.now() >= deadline || signal.aborted) return state;
      // Poll the log; an exit of this host's process ends the sleep at once. Nothing is left attached after the sleep
      // (no reaction on the process's exit promise per call), so back-to-back waits do not pile up closures.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(WAIT_POLL_MS, Math.max(0, deadline - Date.now())));
        function done() {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          entry?.wakers.delete(done);
          resolve();
        }
        signal.addEventListener("abort", done, { once: true });
        entry?.wakers.add(done);
      });
    }
  }

  /** Kills a process tree; false when the id is unknown. */
  async stop(dataDir: string, processId: string, graceMs = MANAGED_STOP_GRACE_MS): Promise<ManagedProcessState | undefined> {
    const entry = this.live.get(processId);
    if (entry) {
      entry.stopped = entry.stopped || entry.exit === undefined;
      await entry.process.kill({ graceMs });
      await entry.process.exited;
      return this.state(dataDir, processId);
    }
    const record = readRecord(dataDir, processId);
    if (!record) return undefined;
    if (record.durable && this.durable) {
      await this.durable.stopManaged(processId, graceMs);
      return this.state(dataDir, processId);
    }
    if (isRecordAlive(record)) await killProcessTree({ rootPid: record.pid, tag: record.tree_tag }, graceMs);
    return this.state(dataDir, processId);
  }

  /** Ends every non-isolated process of this manager (shutdown grace 1.2 s). */
  async close(): Promise<void> {
    const entries = [...this.live.values()].filter((entry) => !entry.record.isolated);
    await Promise.allSettled(entries.map((entry) => entry.process.kill({ graceMs: MANAGED_SHUTDOWN_GRACE_MS })));
    this.live.clear();
  }

  private state(dataDir: string, processId: string): ManagedProcessState | undefined {
    const entry = this.live.get(processId);
    const record = entry?.record ?? readRecord(dataDir, processId);
    if (!record) return undefined;
    // A durable process's log is where its supervisor writes it, whatever the record (host data a command might reach) says.
    if (record.durable && this.durable) record.log_path = path.join(this.durable.managedDirectory(processId), "output.log");
    const log_bytes = fileSize(record.log_path);
    if (entry) {
      const running = entry.exit === undefined;
      return {
        ...record,
        // A remote runner learns the pid after the start (from the remote shell): read it live.
        pid: entry.process.pid || record.pid,
        status: running ? "running" : entry.stopped ? "stopped" : "exited",
        exit_code: entry.exit ? (entry.exit.exitCode ?? -1) : null,
        log_bytes,
      };
    }
    if (record.durable && this.durable) return { ...record, ...this.durable.managedStatus(processId), log_bytes };
    return { ...record, status: isRecordAlive(record) ? "running" : "exited", exit_code: null, log_bytes };
  }

  private knownIds(dataDir: string): string[] {
    const ids = new Set(this.live.keys());
    try {
      for (const name of readdirSync(logDirectory(dataDir))) if (name.endsWith(".json")) ids.add(name.slice(0, -5));
    } catch {
      // no log directory yet
    }
    return [...ids];
  }
}

/** Appends streamed output to a log; a log removed meanwhile (pruned by another host) just stops growing. */
function appendToLog(logPath: string, data: Buffer): void {
  try {
    appendFileSync(logPath, data);
  } catch {
    // best effort, as a logFile the process writes itself
  }
}

function logDirectory(dataDir: string): string {
  return path.join(dataDir, "process-logs");
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function readRecord(dataDir: string, processId: string): ManagedProcessRecord | undefined {
  if (!ID_PATTERN.test(processId)) return undefined;
  const file = path.join(logDirectory(dataDir), `${processId}.json`);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as ManagedProcessRecord;
  } catch {
    return undefined;
  }
}

/** Alive and still the same process (its tag matches, so a reused pid is not mistaken for it). */
function isRecordAlive(record: ManagedProcessRecord): boolean {
  // A workspace's pid names a process of another machine: never probed (or killed) here.
  if (record.workspace !== undefined) return false;
  if (record.pid <= 0 || !isProcessAlive(record.pid)) return false;
  return record.tree_tag === undefined || readProcessTreeTag(record.pid) === record.tree_tag;
}
