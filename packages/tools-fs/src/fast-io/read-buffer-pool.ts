/**
 * Whole-file reads into reused memory, for Edit (and Write's encoded content).
 *
 * Memory freshly mapped into the process costs a page fault on its first
 * touch from JavaScript, even after the kernel filled it with a read: on
 * some virtual machines that is 10-20 us per 4 KB page, i.e. 25-50 ms for a
 * 10 MB file, several times the read + write itself (which never touch the
 * bytes from user space). Edit has to scan the bytes, so large files are read
 * into one of a few buffers kept for reuse. The buffers are backed by
 * SharedArrayBuffers, so the off-thread hash of the new content can read the
 * same memory without a copy; a buffer is busy until its holder releases it.
 * Idle buffers are dropped after {@link READ_POOL_IDLE_MS}, and all of them
 * when the owning bundle closes ({@link ReadBufferPool.close}).
 */
import type { FileHandle } from "node:fs/promises";

/** Files from this size on are read into pooled memory. */
export const READ_POOL_MIN_BYTES = 1024 * 1024;
/** Files above this size are read into fresh memory (the pool does not keep such buffers). */
export const READ_POOL_MAX_BYTES = 64 * 1024 * 1024;
/** Pooled buffers are dropped after this long unused. */
export const READ_POOL_IDLE_MS = 10_000;
const MAX_SLOTS = 2;

interface Slot {
  buffer: Buffer;
  busy: boolean;
  /** While busy only until another thread has copied the bytes: settles then. */
  handedOff?: Promise<void>;
}

/** A whole file's bytes; call `release()` once nothing reads them any more. */
export interface PooledRead {
  readonly bytes: Buffer;
  /** Whether `bytes` lives in pooled shared memory (it must not be kept after `release()`). */
  readonly pooled: boolean;
  release(): void;
  /** Releases the bytes once `done` settles (another thread still reads them); a read waiting for a buffer may wait for that. */
  releaseWhen(done: Promise<void>): void;
}

/**
 * A pooled read that scans as it goes ({@link ReadBufferPool.readWholeFile}'s
 * `onChunk`) reads chunks of this size, or a quarter of the file when that
 * is more (each chunk costs a round trip to the thread pool): the main
 * thread scans one while the thread pool reads the next.
 */
export const SCAN_CHUNK_BYTES = 2 * 1024 * 1024;

/** The chunk size of a scanned read of `size` bytes (see {@link SCAN_CHUNK_BYTES}). */
export function scanChunkBytes(size: number): number {
  return Math.max(SCAN_CHUNK_BYTES, Math.ceil(size / 4 / 65536) * 65536);
}

/**
 * Called as a pooled read progresses with the bytes read so far (a longer
 * prefix of the same memory each time), while the next chunk is being read.
 * It must not throw and must not keep the bytes past the read's release.
 */
export type ReadProgress = (prefix: Buffer) => void;

/** How long a read waits for a handed-off buffer before it takes fresh memory. */
const HAND_OFF_WAIT_MS = 50;

/**
 * One bundle's pool of whole-file buffers (at most two, each up to
 * {@link READ_POOL_MAX_BYTES}); {@link ReadBufferPool.close} drops them all.
 *
 * @example
 * const pool = new ReadBufferPool();
 * const read = await pool.readWholeFile(handle, size);
 * try { scan(read.bytes); } finally { read.release(); }
 */
export class ReadBufferPool {
  private slots: Slot[] = [];
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;

  private scheduleDrop(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.closed) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      this.slots = this.slots.filter((slot) => slot.busy);
    }, READ_POOL_IDLE_MS);
    this.idleTimer.unref();
  }

  private async take(capacity: number): Promise<Slot | null> {
    if (this.closed || typeof SharedArrayBuffer !== "function") return null;
    let slot = this.slots.find((candidate) => !candidate.busy && candidate.buffer.length >= capacity);
    if (!slot) {
      // A buffer that fits is about to come back (another thread is copying it): cheaper to wait than to map new memory.
      const returning = this.slots.find((candidate) => candidate.busy && candidate.handedOff && candidate.buffer.length >= capacity);
      if (returning) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([returning.handedOff, new Promise<void>((resolve) => (timer = setTimeout(resolve, HAND_OFF_WAIT_MS)))]);
        clearTimeout(timer);
        slot = this.slots.find((candidate) => !candidate.busy && candidate.buffer.length >= capacity);
      }
    }
    if (!slot) {
      const free = this.slots.findIndex((candidate) => !candidate.busy);
      if (free === -1 && this.slots.length >= MAX_SLOTS) return null;
      // Room to grow a little without reallocating on the next, slightly larger read.
      const size = Math.min(READ_POOL_MAX_BYTES + 1, Math.ceil((capacity * 1.125) / 65536) * 65536);
      slot = { buffer: Buffer.from(new SharedArrayBuffer(size)), busy: false };
      if (free === -1) this.slots.push(slot);
      else this.slots[free] = slot;
    }
    slot.busy = true;
    slot.handedOff = undefined;
    return slot;
  }

  private releasers(slot: Slot): Pick<PooledRead, "release" | "releaseWhen"> {
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      slot.busy = false;
      slot.handedOff = undefined;
      this.scheduleDrop();
    };
    const releaseWhen = (done: Promise<void>) => {
      if (released) return;
      slot.handedOff = done.then(release, release);
    };
    return { release, releaseWhen };
  }

  /**
   * Reads a whole file through `handle` (whose current size is `size`). Large
   * files land in pooled memory; smaller ones, or when every pooled buffer is
   * busy, in a fresh Buffer like `handle.readFile()`. With `onChunk`, a
   * pooled read goes in chunks of {@link SCAN_CHUNK_BYTES} and reports each
   * while the next is read (an unpooled read never calls it).
   */
  async readWholeFile(handle: FileHandle, size: number, onChunk?: ReadProgress): Promise<PooledRead> {
    const slot = size >= READ_POOL_MIN_BYTES && size <= READ_POOL_MAX_BYTES ? await this.take(size + 1) : null;
    const unpooled = (bytes: Buffer): PooledRead => ({ bytes, pooled: false, release: () => undefined, releaseWhen: () => undefined });
    if (!slot) return unpooled(await handle.readFile());
    const { release, releaseWhen } = this.releasers(slot);
    try {
      const capacity = slot.buffer.length;
      // The last chunk asks for the rest of the buffer (it holds at least
      // half a chunk of the file), so a short read still tells the file's end.
      const chunk = scanChunkBytes(size);
      const wantedFrom = (from: number) => (onChunk && size - from - chunk >= chunk / 2 ? chunk : capacity - from);
      let filled = 0;
      let wanted = wantedFrom(0);
      let reading = handle.read(slot.buffer, 0, wanted, 0);
      for (;;) {
        const { bytesRead } = await reading;
        if (bytesRead === 0) break;
        filled += bytesRead;
        // A short read of a regular file stops at its end: no second round
        // trip to the thread pool just to be told so (a file that grows later
        // is no different from one that grows right after the read).
        const ended = bytesRead < wanted && filled >= size;
        if (!ended && filled === capacity) {
          // The file grew past the buffer since it was sized: read it the ordinary way.
          release();
          // (Positional reads leave the file position at 0, where readFile starts.)
          return unpooled(await handle.readFile());
        }
        if (!ended) {
          // The next chunk is read while this one is scanned (disjoint bytes of the buffer).
          wanted = wantedFrom(filled);
          reading = handle.read(slot.buffer, filled, wanted, filled);
        }
        if (onChunk) {
          try {
            onChunk(slot.buffer.subarray(0, filled));
          } catch {
            onChunk = undefined; // (it must not throw; a read in flight must not outlive the buffer's release)
          }
        }
        if (ended) break;
      }
      return { bytes: slot.buffer.subarray(0, filled), pooled: true, release, releaseWhen };
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * `text` encoded as UTF-8, into pooled memory when it is large (like
   * `Buffer.from(text)` otherwise). Release it like a {@link readWholeFile} result.
   */
  async encodeText(text: string): Promise<PooledRead> {
    const unpooled = (): PooledRead => ({ bytes: Buffer.from(text, "utf8"), pooled: false, release: () => undefined, releaseWhen: () => undefined });
    if (text.length < READ_POOL_MIN_BYTES / 3 || text.length > READ_POOL_MAX_BYTES) return unpooled();
    const size = Buffer.byteLength(text, "utf8");
    if (size < READ_POOL_MIN_BYTES || size > READ_POOL_MAX_BYTES) return unpooled();
    const slot = await this.take(size);
    if (!slot) return unpooled();
    const { release, releaseWhen } = this.releasers(slot);
    const written = slot.buffer.write(text, 0, "utf8");
    return { bytes: slot.buffer.subarray(0, written), pooled: true, release, releaseWhen };
  }

  /** Buffers currently kept by the pool, and how many are busy. */
  usage(): { buffers: number; busy: number } {
    return { buffers: this.slots.length, busy: this.slots.filter((slot) => slot.busy).length };
  }

  /** Drops every buffer (busy ones stay valid for their holders) and serves later reads from fresh memory. */
  close(): void {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.slots = [];
  }
}
