import type { KillOptions, ProcessExit, ProcessOutputChunk, RunningProcess, SpawnOptions } from "@agent-tools/core";
import { StdinPipe } from "@agent-tools/core/internal";
import type { ClientChannel } from "ssh2";
import { MarkerLine } from "./marker-line.js";
import { startFailureMessage } from "./remote-command.js";
import type { RemoteTreeSelector } from "./remote-process-tree.js";

/** The error of a process whose connection dropped before it reported an exit. */
export const CONNECTION_LOST = "connection lost";

/** What a remote process asks of its runner: tree snapshots and tree kills on separate channels. */
export interface RemoteTreeHost {
  /** Live pids of the tree, or undefined when the remote side could not be asked. */
  snapshot(selector: RemoteTreeSelector): Promise<number[] | undefined>;
  /** Ends the tree; resolves with what is still alive afterwards (undefined when the remote side could not be asked). */
  killTree(selector: RemoteTreeSelector, graceMs: number): Promise<number[] | undefined>;
}

/**
 * A process started on the remote machine through an exec channel (see
 * `createSshProcessRunner`).
 *
 * `pid` is the remote pid (also its process-group id); it is 0 until the
 * remote wrapper reported it (`started` resolves then). `isTreeAlive()` and
 * `livePids()` answer synchronously from a cached picture of the remote tree:
 * the root counts as alive until its exit status arrives, and the
 * descendants are known from the last remote snapshot (taken by the runner
 * after the exit, by {@link SshRunningProcess.refresh} and by `kill()`, which
 * only resolves after a remote check found nothing of the tree alive). They
 * are best-effort: a remote process can start or end between two looks.
 */
export class SshRunningProcess implements RunningProcess {
  readonly tag: string;
  readonly exited: Promise<ProcessExit>;
  readonly outputClosed: Promise<void>;
  /** With `stdin: "pipe"`: writes go over the exec channel (waiting for it to open, and for the remote window). */
  readonly stdin: StdinPipe | undefined;
  /** Resolves with the remote pid once reported, or -1 when the process did not start. */
  readonly started: Promise<number>;
  /** True when the connection dropped while the process ran (its remote tree may still live). */
  connectionLost = false;
  private pidValue = 0;
  private supervisorPid: number | undefined;
  private readonly listeners = new Set<(chunk: ProcessOutputChunk) => void>();
  private readonly stdoutHead: MarkerLine;
  private readonly stderrHead: MarkerLine;
  private resolveStarted!: (pid: number) => void;
  private resolveExited!: (exit: ProcessExit) => void;
  private resolveOutput!: () => void;
  private exitStatus: ProcessExit | undefined;
  private failure: string | undefined;
  private hasExited = false;
  /** Descendants from the last remote look; undefined until one was taken after the exit. */
  private descendants: number[] | undefined;
  private channelClosed = false;
  private snapshotVersion = 0;
  private appliedVersion = 0;
  private invalidBefore = 0;
  private killsInFlight = 0;
  private killing: Promise<void> | undefined;

  constructor(
    private readonly options: SpawnOptions,
    context: { readonly tag: string; readonly marker: string },
    channel: Promise<ClientChannel>,
    private readonly host: RemoteTreeHost,
  ) {
    this.tag = context.tag;
    this.stdoutHead = new MarkerLine(context.marker);
    this.stderrHead = new MarkerLine(context.marker);
    this.started = new Promise((resolve) => {
      this.resolveStarted = resolve;
    });
    this.exited = new Promise((resolve) => {
      this.resolveExited = resolve;
    });
    this.outputClosed = new Promise((resolve) => {
      this.resolveOutput = resolve;
    });
    if (options.logFile !== undefined) this.resolveOutput();
    this.stdin = options.stdin === "pipe" ? new StdinPipe() : undefined;
    channel.then(
      (opened) => this.attach(opened),
      (error: unknown) => this.fail(`could not open an exec channel: ${error instanceof Error ? error.message : String(error)}`),
    );
    const signal = options.signal;
    if (signal) {
      const onAbort = () => void this.kill();
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener("abort", onAbort, { once: true });
        void this.exited.then(() => this.outputClosed).then(() => signal.removeEventListener("abort", onAbort));
      }
    }
  }

  /** The remote pid (and process-group id); 0 until the remote side reported it, -1 when it did not start. */
  get pid(): number {
    return this.pidValue;
  }

  /** The tree to look for on the remote machine (with its supervisor, when it runs under one), once the pid is known. */
  get selector(): RemoteTreeSelector | undefined {
    if (this.pidValue <= 0) return undefined;
    return this.supervisorPid === undefined
      ? { rootPid: this.pidValue, tag: this.tag }
      : { rootPid: this.pidValue, tag: this.tag, supervisorPid: this.supervisorPid };
  }

  /** True once the exit was reported. */
  get hasEnded(): boolean {
    return this.hasExited;
  }

  private attach(channel: ClientChannel): void {
    const streams = [
      { name: "stdout" as const, readable: channel as NodeJS.ReadableStream, head: this.stdoutHead },
      { name: "stderr" as const, readable: channel.stderr as NodeJS.ReadableStream, head: this.stderrHead },
    ];
    for (const { name, readable, head } of streams) {
      readable.on("data", (data: Buffer) => {
        const payload = head.push(data);
        if (name === "stdout" && head.line !== undefined && this.pidValue === 0 && this.failure === undefined) this.readHeader(head.line);
        if (payload.length === 0 || this.options.logFile !== undefined) return;
        for (const listener of this.listeners) listener({ stream: name, data: payload });
      });
      readable.on("error", () => undefined);
    }
    const onExit = (code: number | null | undefined, signal?: string) => {
      if (this.exitStatus !== undefined || (code === undefined && signal === undefined)) return;
      const name = typeof signal === "string" && signal !== "" ? (signal.startsWith("SIG") ? signal : `SIG${signal}`) : null;
      this.exitStatus = { exitCode: name ? null : (code ?? null), signal: name };
    };
    channel.on("exit", (code: number | null, signal?: string) => {
      onExit(code, signal);
      this.settle();
    });
    channel.once("close", (code?: number | null, signal?: string) => {
      // The exit status can arrive in the same packet burst as the exec reply, before this
      // listener was attached: ssh2 repeats it on `close`.
      onExit(code, signal);
      this.channelClosed = true;
      this.resolveOutput();
      if (this.failure === undefined && this.stdoutHead.line === undefined) {
        // No marker line: the wrapper never ran (no /bin/sh, a login shell that refused), or the connection dropped first.
        const said = Buffer.concat([this.stderrHead.unmatched(), this.stdoutHead.unmatched()]).toString("utf8").trim();
        this.failure =
          this.exitStatus === undefined && said === ""
            ? `the remote wrapper did not start (${CONNECTION_LOST})`
            : `the remote wrapper did not start${said ? `: ${said.slice(-500)}` : ""}`;
      } else if (this.exitStatus === undefined && this.failure === undefined) {
        this.connectionLost = true;
        this.exitStatus = { exitCode: null, signal: null, error: CONNECTION_LOST };
      }
      this.settle(true);
    });
    if (this.options.input !== undefined) channel.end(this.options.input);
    else if (this.stdin) this.stdin.attach(channel);
    else channel.end();
  }

  private readHeader(line: string): void {
    const words = line.split(" ");
    if (words[1] === "P" && /^\d+$/.test(words[2] ?? "")) {
      this.pidValue = Number(words[2]);
      // `<marker> P <pid> <supervisor>` under the remote supervisor.
      if (/^\d+$/.test(words[3] ?? "") && Number(words[3]) > 1) this.supervisorPid = Number(words[3]);
      this.resolveStarted(this.pidValue);
    } else {
      this.failure = startFailureMessage(words[2] ?? "", this.options);
    }
    this.settle();
  }

  private fail(message: string): void {
    this.failure ??= message;
    this.channelClosed = true;
    this.resolveOutput();
    this.settle(true);
  }

  /** Resolves `exited` once both the header and the exit status (or the channel's close) are known. */
  private settle(closed = false): void {
    if (this.hasExited) return;
    if (this.failure !== undefined) {
      this.finish({ exitCode: 127, signal: null, error: this.failure });
      return;
    }
    if (this.exitStatus === undefined || (this.stdoutHead.line === undefined && !closed)) return;
    this.finish(this.exitStatus);
  }

  private finish(exit: ProcessExit): void {
    this.hasExited = true;
    this.stdin?.close(exit.error === undefined ? "the process exited" : `the process did not start (${exit.error})`);
    if (this.pidValue === 0) this.pidValue = -1;
    this.resolveStarted(this.pidValue);
    this.resolveExited(exit);
  }

  onOutput(listener: (chunk: ProcessOutputChunk) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Asks the remote machine which processes of the tree live now and updates
   * what `isTreeAlive()` and `livePids()` answer. Resolves with the live pids.
   */
  async refresh(): Promise<number[]> {
    const selector = this.selector;
    if (!selector || this.killsInFlight > 0) return this.livePids();
    const version = ++this.snapshotVersion;
    const pids = await this.host.snapshot(selector);
    // A look applies unless a newer one was applied or a kill started after it was asked for.
    if (pids !== undefined && version > this.appliedVersion && version > this.invalidBefore && this.killsInFlight === 0) {
      this.appliedVersion = version;
      this.descendants = pids.filter((pid) => pid !== this.pidValue);
    }
    return this.livePids();
  }

  kill(options: KillOptions = {}): Promise<void> {
    this.killing ??= this.killTree(options.graceMs ?? 300).finally(() => {
      this.killing = undefined;
    });
    return this.killing;
  }

  private async killTree(graceMs: number): Promise<void> {
    const pid = await this.started;
    const selector = this.selector;
    if (pid <= 0 || !selector) return;
    this.killsInFlight += 1;
    this.invalidBefore = ++this.snapshotVersion;
    try {
      const left = await this.host.killTree(selector, graceMs);
      if (left !== undefined) this.descendants = left.filter((alive) => alive !== pid);
      // The root's own exit status arrives on its channel shortly after.
      if (left !== undefined && !left.includes(pid)) await this.exited;
    } finally {
      this.killsInFlight -= 1;
    }
  }

  /**
   * True while the root runs, then while the last remote look found
   * descendants; before any look after the exit, while the channel is still
   * held open (by descendants that kept the output pipes).
   */
  isTreeAlive(): boolean {
    if (!this.hasExited && this.failure === undefined) return true;
    if (this.descendants !== undefined) return this.descendants.length > 0;
    return !this.channelClosed && this.options.logFile === undefined;
  }

  livePids(): number[] {
    const root = !this.hasExited && this.pidValue > 0 ? [this.pidValue] : [];
    return [...root, ...(this.descendants ?? [])];
  }

  /** Forgets the cached descendants (after the runner ended the tree itself). */
  markTreeEnded(): void {
    this.invalidBefore = ++this.snapshotVersion;
    this.descendants = [];
  }
}
