/**
 * One running anchored helper (see `helper-script.ts`): its exec channel
 * with the length-framed messages both ways. Frames arrive in order and are
 * handed out one at a time by {@link HelperSession.next}; a frame not asked
 * for within the deadline ends the session (the channel is closed, so the
 * remote program gets EOF and exits).
 */
import { WorkspaceError } from "@agent-tools/core/workspace";
import type { ClientChannel } from "ssh2";

/** Frame length that cancels a write's data. */
const ABORT_FRAME = 0xffffffff;
/** Frames held for a reader before the channel is paused (a read frame is up to 256 KiB), and resumed. */
const PAUSE_FRAMES = 32;
const RESUME_FRAMES = 8;
/** Largest frame accepted from the helper (a read chunk is 256 KiB). */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

/** A failure the helper reported (`E` frame): its errno-like code and message. */
export class HelperError extends Error {
  override readonly name = "HelperError";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A frame as a request: fields joined by NUL. */
export function requestFrame(fields: readonly string[]): Buffer {
  return Buffer.from(fields.join("\0"), "utf8");
}

/** The fields of an `O` answer, or the {@link HelperError} of an `E` one (thrown). */
export function answerFields(frame: Buffer, label: string): string[] {
  const kind = String.fromCharCode(frame[0] ?? 0);
  const fields = frame.subarray(Math.min(frame.length, 2)).toString("utf8").split("\0");
  if (kind === "O") return frame.length <= 1 ? [] : fields;
  if (kind === "E") throw new HelperError(fields[0] ?? "EIO", fields.slice(1).join(" "));
  throw new WorkspaceError("io", `${label}: the anchored helper answered out of turn (frame ${JSON.stringify(kind)}).`);
}

/** The exec channel of one helper and its frames. */
export class HelperSession {
  readonly #channel: ClientChannel;
  readonly #label: string;
  readonly #frames: Buffer[] = [];
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #waiter: { resolve: (frame: Buffer) => void; reject: (error: Error) => void; timer?: NodeJS.Timeout } | undefined;
  #failure: Error | undefined;
  #stderr = "";
  #paused = false;

  constructor(channel: ClientChannel, label: string) {
    this.#channel = channel;
    this.#label = label;
    channel.on("data", (chunk: Buffer) => this.#receive(chunk));
    channel.stderr.on("data", (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString("utf8")).slice(-2_000);
    });
    channel.once("close", () =>
      this.#fail(
        new WorkspaceError(
          "connection",
          `${label}: the anchored helper's channel closed${this.#stderr.trim() ? ` (${this.#stderr.trim().slice(0, 300)})` : ""}.`,
          {
            endpoint: label,
          },
        ),
      ),
    );
    channel.on("error", (error: Error) =>
      this.#fail(new WorkspaceError("connection", `${label}: the anchored helper's channel failed: ${error.message}`, {}, { cause: error })),
    );
  }

  /** True once the channel closed or the session was given up. */
  get dead(): boolean {
    return this.#failure !== undefined;
  }

  /** The next frame; rejects when the channel closes, or after `timeoutMs` without one (the session is then ended). */
  next(timeoutMs: number): Promise<Buffer> {
    const ready = this.#frames.shift();
    if (this.#paused && this.#frames.length <= RESUME_FRAMES) {
      this.#paused = false;
      this.#channel.resume();
    }
    if (ready) return Promise.resolve(ready);
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.destroy(new WorkspaceError("io", `${this.#label}: the anchored helper did not answer within ${timeoutMs} ms; it was stopped.`));
      }, timeoutMs);
      timer.unref?.();
      this.#waiter = { resolve, reject, timer };
    });
  }

  /** Sends one frame (waits while the channel's window is full). */
  async send(payload: Buffer): Promise<void> {
    if (payload.length >= ABORT_FRAME) throw new WorkspaceError("io", `${this.#label}: a frame of ${payload.length} bytes is too long.`);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(payload.length, 0);
    await this.#write(payload.length === 0 ? head : Buffer.concat([head, payload]));
  }

  /** Sends the frame that cancels a write's data. */
  sendAbort(): Promise<void> {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(ABORT_FRAME, 0);
    return this.#write(head);
  }

  /** Ends the session: the channel is closed and anything waiting rejects with `error`. */
  destroy(error?: Error): void {
    this.#fail(error ?? new WorkspaceError("io", `${this.#label}: the anchored helper was stopped.`));
    try {
      // Flowing again, so the channel can end (and free its slot) whatever it still had unread.
      this.#channel.resume();
      this.#channel.close();
    } catch {
      // Already closed.
    }
  }

  async #write(bytes: Buffer): Promise<void> {
    if (this.#failure) throw this.#failure;
    if (this.#channel.write(bytes)) return;
    await new Promise<void>((resolve, reject) => {
      const onDrain = () => {
        this.#channel.off("close", onClose);
        resolve();
      };
      const onClose = () => {
        this.#channel.off("drain", onDrain);
        reject(this.#failure ?? new WorkspaceError("connection", `${this.#label}: the anchored helper's channel closed.`));
      };
      this.#channel.once("drain", onDrain);
      this.#channel.once("close", onClose);
    });
  }

  #receive(chunk: Buffer): void {
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    for (;;) {
      if (this.#pendingBytes < 4) return;
      let joined = this.#pending.length === 1 ? (this.#pending[0] as Buffer) : Buffer.concat(this.#pending);
      const length = joined.readUInt32BE(0);
      if (length > MAX_FRAME_BYTES) {
        this.destroy(new WorkspaceError("io", `${this.#label}: the anchored helper sent a frame of ${length} bytes.`));
        return;
      }
      if (joined.length < 4 + length) {
        this.#pending = [joined];
        return;
      }
      const frame = joined.subarray(4, 4 + length);
      joined = joined.subarray(4 + length);
      this.#pending = joined.length > 0 ? [joined] : [];
      this.#pendingBytes = joined.length;
      this.#deliver(Buffer.from(frame));
    }
  }

  #deliver(frame: Buffer): void {
    const waiter = this.#waiter;
    if (!waiter) {
      this.#frames.push(frame);
      // A slow reader of a long file: let the channel's window fill, so the helper waits instead of this process buffering.
      if (!this.#paused && this.#frames.length >= PAUSE_FRAMES) {
        this.#paused = true;
        this.#channel.pause();
      }
      return;
    }
    this.#waiter = undefined;
    clearTimeout(waiter.timer);
    waiter.resolve(frame);
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    const waiter = this.#waiter;
    if (!waiter) return;
    this.#waiter = undefined;
    clearTimeout(waiter.timer);
    waiter.reject(this.#failure);
  }
}
