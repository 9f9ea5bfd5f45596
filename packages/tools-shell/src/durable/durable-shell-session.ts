import path from "node:path";
import type { ToolUpdate } from "@agent-tools/core";
import { type DurableProcessLauncher, type DurableProcessView, readJsonFile, writeJsonAtomic } from "@agent-tools/node/internal";
import { AbortGuard } from "../abort-guard.js";
import { DEFAULT_PAGE_BYTES, type OutputPage } from "../output-ring-buffer.js";
import type { ResumableSession } from "../resumable-session.js";
import type { ShellSessionStatus, WaitOutcome } from "../shell-session.js";
import { STREAM_MAX_BYTES_PER_FLUSH, UpdateForwarder } from "../update-forwarder.js";
import { incompleteUtf8Tail, leadingContinuationBytes } from "../utf8.js";
import { DurableReadCursor } from "./durable-read-cursor.js";

/** How often a wait looks at the log and the state. */
const POLL_MS = 50;
/** How long a stop waits for the supervisor to record the exit. */
const STOP_RECORD_MS = 2_000;

/** What a session knows of its process at one instant. */
interface Snapshot {
  readonly view: DurableProcessView;
  readonly stopRequested: boolean;
  readonly status: ShellSessionStatus;
  /** Processes of the tree alive after the shell exited. */
  readonly descendants: readonly number[];
  /** No process of the tree can write to the log any more. */
  readonly quiet: boolean;
  /** Log size, read after the state. */
  readonly size: number;
}

/** The host's part of `spec.json`'s `meta`. */
export interface DurableSessionMeta {
  readonly kind: "bash";
  readonly id: string;
  /** The command as the model gave it (the spec holds the sandbox's rewrite, if any). */
  readonly command: string;
  /** Absolute working directory. */
  readonly cwd: string;
  /** The workspace root of the registry that started it: only registries of that workspace find the session. */
  readonly workdir: string;
  readonly sandbox: string;
  readonly timeoutMs?: number;
}

/**
 * A Bash session whose command runs under a supervisor (see
 * `NodeDurableProcessLauncher`) in its own directory: the output is
 * `output.log` (one stream: stdout and stderr in the order written; the
 * cursor is a byte offset into it and nothing is ever evicted), the state is
 * `state.json`, a stop request is `stop.json`, the read position
 * `cursor.json`. Any host process with the same directory can build this
 * object again and read on; its state is read from disk each time, never
 * held. Statuses: `running`; `completed`/`failed` by exit code; `cancelled`
 * after a stop; `timed_out` (the supervisor enforced it); `lost` when the
 * command is gone with no exit recorded (its supervisor died too).
 */
export class DurableShellSession implements ResumableSession {
  readonly durable = true;
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number | undefined;
  readonly sandbox: string;
  readonly workspace = undefined;
  private snapshotValue: Snapshot;
  private readonly forwarders = new Map<UpdateForwarder, number>();
  private readonly cursorFile: DurableReadCursor;
  /** Calls of this process that began without a cursor and have not ended yet. */
  private readonly cursorless = new Set<string>();
  private readonly abortGuard = new AbortGuard(() => void this.terminate("cancelled"));

  constructor(
    private readonly directory: string,
    meta: DurableSessionMeta,
    private readonly launcher: DurableProcessLauncher,
  ) {
    this.id = meta.id;
    this.command = meta.command;
    this.cwd = meta.cwd;
    this.timeoutMs = meta.timeoutMs;
    this.sandbox = meta.sandbox;
    this.cursorFile = new DurableReadCursor(directory);
    this.snapshotValue = this.refresh();
  }

  get status(): ShellSessionStatus {
    return this.snapshotValue.status;
  }

  get isTerminal(): boolean {
    return this.snapshotValue.status !== "running";
  }

  get exitCode(): number | null {
    const { status, view } = this.snapshotValue;
    if (status === "running" || status === "lost") return null;
    return view.state?.exitCode ?? -1;
  }

  get durationMs(): number {
    const state = this.snapshotValue.view.state;
    if (!state) return 0;
    const end = state.endedAt ?? (this.snapshotValue.status === "lost" ? state.updatedAt : Date.now());
    return Math.max(0, end - state.startedAt);
  }

  get descendantsAlive(): readonly number[] {
    return this.snapshotValue.descendants;
  }

  get buffer(): { readonly oldestCursor: number; readonly nextCursor: number } {
    return { oldestCursor: 0, nextCursor: this.snapshotValue.size };
  }

  /** Reads the state and then the log size again. */
  private refresh(): Snapshot {
    const view = this.launcher.inspect(this.directory);
    const stopRequested = readJsonFile<unknown>(path.join(this.directory, "stop.json")) !== undefined;
    const state = view.state;
    let status: ShellSessionStatus;
    if (!state) status = "lost";
    else if (state.status === "timed_out") status = "timed_out";
    else if (state.status === "exited") status = stopRequested ? "cancelled" : state.exitCode === 0 ? "completed" : "failed";
    else if (view.processAlive || view.supervisorAlive) status = "running";
    // No exit recorded, no one left to record it: a stop that was asked for ended it; else it was lost, unless
    // processes of its tree still run (a command that killed its supervisor before its pid was recorded).
    else if (stopRequested) status = "cancelled";
    else status = state.pid === 0 && this.launcher.treeMembers(this.directory).length > 0 ? "running" : "lost";
    let descendants: readonly number[] = [];
    if (status !== "running" && state && !state.treeEnded) {
      // A live supervisor keeps the list current; without one, look at the tree itself.
      descendants = view.supervisorAlive ? state.descendantsAlive : this.launcher.treeMembers(this.directory);
    }
    const quiet = status !== "running" && descendants.length === 0;
    this.snapshotValue = { view, stopRequested, status, descendants, quiet, size: this.launcher.logSize(this.directory) };
    if (status !== "running") this.abortGuard.release();
    return this.snapshotValue;
  }

  read(cursor: number | undefined, maxBytes = DEFAULT_PAGE_BYTES): OutputPage {
    const { quiet } = this.refresh();
    const { data, size } = this.launcher.readLog(this.directory, cursor ?? 0, maxBytes);
    const from = Math.min(Math.max(0, Math.floor(cursor ?? 0)), size);
    const skip = leadingContinuationBytes(data, 0, data.length);
    let end = data.length;
    // A character cut by the page end or still being written waits for the next page.
    if (from + end < size || !quiet) end -= incompleteUtf8Tail(data, end);
    if (end < skip) end = skip;
    const text = data.subarray(skip, end).toString("utf8");
    return {
      output: text === "" ? [] : [{ stream: "stdout", text }],
      cursor: from + end,
      start: from,
      outputTruncated: false,
      hasMore: from + end < size,
      bytes: end - skip,
    };
  }

  async wait(cursor: number, yieldMs: number, signal?: AbortSignal): Promise<WaitOutcome> {
    const deadline = Date.now() + Math.max(0, yieldMs);
    for (;;) {
      const snapshot = this.refresh();
      this.pump(snapshot);
      if (snapshot.status !== "running") return "terminal";
      if (snapshot.size - cursor >= DEFAULT_PAGE_BYTES) return "output";
      if (signal?.aborted) return "aborted";
      if (Date.now() >= deadline) return "yield";
      await pause(Math.min(POLL_MS, deadline - Date.now()), signal);
    }
  }

  stream(onUpdate: (update: ToolUpdate) => void): () => void {
    const forwarder = new UpdateForwarder(onUpdate);
    this.forwarders.set(forwarder, this.snapshotValue.size);
    return () => {
      this.forwarders.delete(forwarder);
      forwarder.close();
    };
  }

  stopOnAbort(signal: AbortSignal): void {
    if (this.isTerminal) return;
    this.abortGuard.add(signal);
  }

  /** Records the stop request, kills the whole tree, and waits (up to 2 s) for the supervisor to record the exit. */
  async terminate(_reason: "cancelled" | "timed_out" = "cancelled"): Promise<void> {
    if (this.refresh().status !== "running") return;
    writeJsonAtomic(path.join(this.directory, "stop.json"), { requestedAt: Date.now() });
    await this.launcher.stop(this.directory);
    const deadline = Date.now() + STOP_RECORD_MS;
    while (this.refresh().status === "running" && Date.now() < deadline) await pause(POLL_MS);
  }

  /** Ends what the command left running; the status stays. */
  async endTree(): Promise<void> {
    await this.launcher.stop(this.directory);
    const deadline = Date.now() + STOP_RECORD_MS;
    while (this.refresh().descendants.length > 0 && Date.now() < deadline) await pause(POLL_MS);
  }

  beginRead(callId: string, cursor: number | undefined): number {
    // Only a call without a cursor needs its start remembered: one with a cursor passes the same one when it runs again.
    if (cursor === undefined) this.cursorless.add(callId);
    return this.cursorFile.begin(callId, cursor);
  }

  endRead(callId: string, start: number, end: number): void {
    const remember = this.cursorless.delete(callId);
    this.cursorFile.end(remember ? callId : undefined, start, end);
  }

  /** Streams what the log gained since each forwarder's position (whole characters only). */
  private pump(snapshot: Snapshot): void {
    for (const [forwarder, known] of this.forwarders) {
      if (snapshot.size <= known) continue;
      // Far behind (a flood of output): stream the newest part; all of it stays readable through ProcessWait.
      const position = Math.max(known, snapshot.size - STREAM_MAX_BYTES_PER_FLUSH);
      const { data } = this.launcher.readLog(this.directory, position, snapshot.size - position);
      const skip = position > known ? leadingContinuationBytes(data, 0, data.length) : 0;
      const end = snapshot.quiet ? data.length : data.length - incompleteUtf8Tail(data, data.length);
      if (end > skip) forwarder.push("stdout", data.subarray(skip, end));
      this.forwarders.set(forwarder, position + Math.max(end, skip));
      if (snapshot.status !== "running") forwarder.flush();
    }
  }
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}
