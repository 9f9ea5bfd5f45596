/**
 * The `stdin` of a {@link RunningProcess} spawned with `stdin: "pipe"`, over
 * any writable stream (a child's pipe, an SSH channel), and the check of the
 * `stdin` spawn option every runner shares.
 */
import { SdkError } from "../errors.js";
import type { RunningProcess, SpawnOptions } from "./process-runner.js";

/** The part of a Node writable stream a {@link StdinPipe} writes to. */
export interface StdinSink {
  write(chunk: Uint8Array, callback: (error?: Error | null) => void): boolean;
  end(callback?: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/**
 * Throws `SdkError("invalid_options")` naming the option when `stdin` is
 * anything but absent or `"pipe"`, or is `"pipe"` together with `input` or
 * `logFile`.
 */
export function checkStdinOption(options: SpawnOptions): void {
  const stdin: unknown = options.stdin;
  if (stdin === undefined) return;
  if (stdin !== "pipe") {
    throw new SdkError(
      "invalid_options",
      `ProcessRunner.spawn: stdin must be "pipe" or absent, got ${JSON.stringify(stdin) ?? String(stdin)}; did you mean "pipe"?`,
      {
        option: "stdin",
        suggestion: "pipe",
      },
    );
  }
  for (const option of ["input", "logFile"] as const) {
    if (options[option] !== undefined) {
      throw new SdkError(
        "invalid_options",
        `ProcessRunner.spawn: stdin: "pipe" cannot be combined with ${option} (${option === "input" ? "write the text through stdin.write instead" : "a piped process streams its output"}).`,
        { option },
      );
    }
  }
}

interface PendingWrite {
  readonly bytes: Uint8Array;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Writes in call order to a sink attached once it exists (before, writes
 * wait in order); a write resolves when the sink's callback reports the
 * chunk accepted (after back-pressure), rejects after `end()` or once the
 * runner called `close()` (the process exited or could not start), which
 * also rejects every write still pending. `end()` is idempotent.
 *
 * @example
 * const pipe = new StdinPipe();
 * pipe.attach(child.stdin);
 * child.once("exit", () => pipe.close("the process exited"));
 */
export class StdinPipe implements NonNullable<RunningProcess["stdin"]> {
  private sink: StdinSink | undefined;
  private readonly waiting: PendingWrite[] = [];
  private readonly inFlight = new Set<PendingWrite>();
  private ending: Promise<void> | undefined;
  private endNow: (() => void) | undefined;
  private closedReason: string | undefined;

  /** Starts writing to `sink` (the queued writes first, in order). */
  attach(sink: StdinSink): void {
    if (this.sink !== undefined || this.closedReason !== undefined) return;
    this.sink = sink;
    sink.on("error", () => undefined);
    for (const entry of this.waiting.splice(0)) this.send(entry);
    this.endNow?.();
  }

  /** No more writes: rejects the pending ones with `reason` and settles `end()`. */
  close(reason: string): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    const pending = [...this.waiting.splice(0), ...this.inFlight];
    this.inFlight.clear();
    for (const entry of pending) entry.reject(new Error(`stdin.write failed: ${reason}.`));
    this.endNow?.();
  }

  write(data: string | Uint8Array): Promise<void> {
    if (typeof data !== "string" && !(data instanceof Uint8Array)) {
      return Promise.reject(new TypeError("stdin.write takes a string or a Uint8Array."));
    }
    if (this.closedReason !== undefined) return Promise.reject(new Error(`stdin.write failed: ${this.closedReason}.`));
    if (this.ending !== undefined) return Promise.reject(new Error("stdin.write failed: stdin was ended."));
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    return new Promise((resolve, reject) => {
      const entry = { bytes, resolve, reject };
      if (this.sink === undefined) this.waiting.push(entry);
      else this.send(entry);
    });
  }

  end(): Promise<void> {
    this.ending ??= new Promise((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        this.endNow = undefined;
        resolve();
      };
      this.endNow = () => {
        if (this.closedReason !== undefined) finish();
        else if (this.sink !== undefined) {
          this.endNow = finish;
          this.sink.end(finish);
        }
      };
      this.endNow();
    });
    return this.ending;
  }

  private send(entry: PendingWrite): void {
    this.inFlight.add(entry);
    const settle = (error?: Error | null) => {
      if (!this.inFlight.delete(entry)) return;
      if (error) entry.reject(new Error(`stdin.write failed: ${error.message}`));
      else entry.resolve();
    };
    try {
      this.sink!.write(entry.bytes, settle);
    } catch (error) {
      settle(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
