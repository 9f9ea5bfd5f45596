import type { ToolUpdate } from "@agent-tools/core";
import type { OutputStream } from "./output-ring-buffer.js";

/** Default flush interval of streamed output. */
export const STREAM_FLUSH_INTERVAL_MS = 50;
/** Default cap of streamed output per flush. */
export const STREAM_MAX_BYTES_PER_FLUSH = 64 * 1024;

/**
 * Forwards output to a host's `onUpdate` as it arrives, coalesced: the first
 * chunk after a quiet period goes out at once, later ones at most every
 * `intervalMs`, and at most `maxBytesPerFlush` per flush. Bytes over the cap
 * are not streamed (they stay readable through ProcessWait); a note says how
 * many. This keeps a host's live view and the CPU bounded when a command
 * prints gigabytes.
 */
export class UpdateForwarder {
  /** Queued text, adjacent chunks of a stream already joined. */
  private pending: { stream: OutputStream; text: string }[] = [];
  private pendingBytes = 0;
  private skippedBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastFlush = 0;
  private closed = false;

  constructor(
    private readonly onUpdate: (update: ToolUpdate) => void,
    private readonly intervalMs = STREAM_FLUSH_INTERVAL_MS,
    private readonly maxBytesPerFlush = STREAM_MAX_BYTES_PER_FLUSH,
  ) {}

  /**
   * Queues a chunk (whole UTF-8 characters). It is decoded here, once, and
   * not copied: a chunk that ends on a character boundary decodes to the
   * same text alone as joined with its neighbours.
   */
  push(stream: OutputStream, data: Uint8Array): void {
    if (this.closed) return;
    const room = this.maxBytesPerFlush - this.pendingBytes;
    if (room >= data.length) {
      const text = Buffer.from(data.buffer, data.byteOffset, data.length).toString("utf8");
      const last = this.pending[this.pending.length - 1];
      if (last && last.stream === stream) last.text += text;
      else this.pending.push({ stream, text });
      this.pendingBytes += data.length;
    } else {
      this.skippedBytes += data.length;
    }
    if (this.timer) return;
    const wait = this.lastFlush + this.intervalMs - Date.now();
    if (wait <= 0) this.flush();
    else {
      this.timer = setTimeout(() => this.flush(), wait);
      this.timer.unref?.();
    }
  }

  /** Sends what is queued now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.lastFlush = Date.now();
    const pending = this.pending;
    if (pending.length > 0) {
      this.pending = [];
      this.pendingBytes = 0;
      for (const { stream, text } of pending) this.send({ stream, text });
    }
    if (this.skippedBytes > 0) {
      const skipped = this.skippedBytes;
      this.skippedBytes = 0;
      this.send({ text: `\n[${skipped} bytes of output were not streamed; they are in the session buffer]\n`, data: { skippedBytes: skipped } });
    }
  }

  /** Flushes and stops forwarding. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
  }

  private send(update: ToolUpdate): void {
    try {
      this.onUpdate(update);
    } catch {
      // A host listener that throws must not break the command.
    }
  }
}
