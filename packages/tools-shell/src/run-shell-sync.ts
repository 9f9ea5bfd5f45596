import type { ProcessRunner, ToolUpdate } from "@agent-tools/core";
import { UpdateForwarder } from "./update-forwarder.js";
import { Utf8ChunkJoiner } from "./utf8.js";

/** Bytes kept per stream on the synchronous path (the pipes stay drained past it). */
export const SYNC_STREAM_LIMIT_BYTES = 400 * 1024;
/** How long the pipes may stay open after the main process exited. */
export const STDIO_CLOSE_GRACE_MS = 300;

/** Options of {@link runShellSync}. */
export interface RunShellSyncOptions {
  command: string;
  cwd: string;
  shell: string;
  timeoutMs: number;
  runner: ProcessRunner;
  env?: Record<string, string>;
  signal?: AbortSignal;
  onUpdate?(update: ToolUpdate): void;
  /** Default 400 KiB. */
  streamLimitBytes?: number;
}

/** What a synchronous run produced. */
export interface ShellSyncResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  stdoutBytes: number;
  stderrBytes: number;
  timedOut: boolean;
  cancelled: boolean;
  stdioOpenAfterExit: boolean;
  durationMs: number;
}

class CappedStream {
  readonly parts: Buffer[] = [];
  kept = 0;
  total = 0;
  private readonly joiner = new Utf8ChunkJoiner();
  constructor(private readonly limit: number) {}

  push(data: Buffer): Buffer | undefined {
    this.total += data.length;
    const whole = this.joiner.push(data);
    if (whole.length === 0 || this.kept >= this.limit) return undefined;
    let keep = whole;
    if (this.kept + whole.length > this.limit) {
      const end = this.limit - this.kept;
      // Cut on a character boundary: back off over continuation bytes.
      let cut = end;
      while (cut > 0 && (whole[cut]! & 0xc0) === 0x80) cut -= 1;
      keep = whole.subarray(0, cut);
    }
    this.parts.push(Buffer.from(keep));
    this.kept += keep.length;
    return keep;
  }

  text(): string {
    const rest = this.joiner.flush();
    if (rest && this.kept + rest.length <= this.limit) {
      this.parts.push(rest);
      this.kept += rest.length;
    }
    return Buffer.concat(this.parts).toString("utf8");
  }
}

/**
 * Runs a command to completion: the first 400 KiB of each stream are kept
 * (the pipes stay drained), a timeout or an abort kills the whole tree, and
 * pipes still open 300 ms after the exit are reported.
 */
export async function runShellSync(options: RunShellSyncOptions): Promise<ShellSyncResult> {
  const startedAt = Date.now();
  const limit = options.streamLimitBytes ?? SYNC_STREAM_LIMIT_BYTES;
  const streams = { stdout: new CappedStream(limit), stderr: new CappedStream(limit) };
  const forwarder = options.onUpdate ? new UpdateForwarder(options.onUpdate) : undefined;
  const child = options.runner.spawn({ command: options.command, shell: options.shell, cwd: options.cwd, env: options.env });
  child.onOutput((chunk) => {
    const kept = streams[chunk.stream].push(chunk.data);
    if (kept && forwarder) forwarder.push(chunk.stream, kept);
  });
  let timedOut = false;
  let cancelled = false;
  let killing: Promise<void> | undefined;
  const kill = () => (killing ??= child.kill());
  const timer = setTimeout(() => {
    timedOut = true;
    void kill();
  }, options.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    void kill();
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const exit = await child.exited;
    if (killing) await killing;
    let graceTimer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      child.outputClosed.then(() => true),
      new Promise<boolean>((resolve) => (graceTimer = setTimeout(() => resolve(false), STDIO_CLOSE_GRACE_MS))),
    ]);
    clearTimeout(graceTimer);
    forwarder?.close();
    const stdioOpenAfterExit = !closed && !timedOut && !cancelled;
    const stdout = streams.stdout.text();
    let stderr = streams.stderr.text();
    if (stdioOpenAfterExit) {
      stderr += `${stderr === "" || stderr.endsWith("\n") ? "" : "\n"}[warning] The command exited but a process it started still holds stdout/stderr open; its later output is not captured. Redirect background processes' output (> file 2>&1) or use ManagedProcess.\n`;
    }
    if (exit.error) stderr += `${stderr === "" || stderr.endsWith("\n") ? "" : "\n"}The command could not start: ${exit.error}\n`;
    if (cancelled) stderr += `${stderr === "" || stderr.endsWith("\n") ? "" : "\n"}Cancelled\n`;
    return {
      exitCode: cancelled ? -1 : (exit.exitCode ?? -1),
      stdout,
      stderr,
      stdoutTruncated: streams.stdout.total > streams.stdout.kept,
      stderrTruncated: streams.stderr.total > streams.stderr.kept,
      stdoutBytes: streams.stdout.total,
      stderrBytes: streams.stderr.total,
      timedOut,
      cancelled,
      stdioOpenAfterExit,
      durationMs: Date.now() - startedAt,
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}
