/**
 * Whole-file reads into reused memory, for Edit.
 *
 * Memory freshly mapped into the process costs a page fault on its first
 * touch from JavaScript, even after the kernel filled it with a read: on
 * some virtual machines that is 10-20 us per 4 KB page, i.e. 25-50 ms for a
 * 10 MB file, several times the read + write itself (which never touch the
 * bytes from user space). Edit has to scan the bytes, so large files are read
 * into one of a few buffers kept for reuse. The buffers are backed by
 * SharedArrayBuffers, so the off-thread hash of the new content can read the
 * same memory without a copy; a buffer is busy until its holder releases it.
 * Idle buffers are dropped after {@link READ_POOL_IDLE_MS}.
 */
import type { FileHandle } from "node:fs/promises";

/** Files from this size on are read into pooled memory. */
export const READ_POOL_MIN_BYTES = 1024 * 1024;
/** Files above this size are read into fresh memory (the pool does not keep such buffers). */
export const READ_POOL_MAX_BYTES = 256 * 1024 * 1024;
/** Pooled buffers are dropped after this long unused. */
export const READ_POOL_IDLE_MS = 10_000;
const MAX_SLOTS = 2;

interface Slot {
  buffer: Buffer;
  busy: boolean;
}

/** A whole file's bytes; call `release()` once nothing reads them any more. */
export interface PooledRead {
  readonly bytes: Buffer;
  /** Whether `bytes` lives in pooled shared memory (it must not be kept after `release()`). */
  readonly pooled: boolean;
  release(): void;
}

const slots: Slot[] = [];
let idleTimer: NodeJS.Timeout | null = null;

function scheduleDrop(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleTimer = null;
    for (let index = slots.length - 1; index >= 0; index -= 1) if (!slots[index]!.busy) slots.splice(index, 1);
  }, READ_POOL_IDLE_MS);
  idleTimer.unref();
}

function take(capacity: number): Slot | null {
  let slot = slots.find((candidate) => !candidate.busy && candidate.buffer.length >= capacity);
  if (!slot) {
    const free = slots.findIndex((candidate) => !candidate.busy);
    if (free === -1 && slots.length >= MAX_SLOTS) return null;
    // Room to grow a little without reallocating on the next, slightly larger read.
    const size = Math.min(READ_POOL_MAX_BYTES + 1, Math.ceil((capacity * 1.125) / 65536) * 65536);
    slot = { buffer: Buffer.from(new SharedArrayBuffer(size)), busy: false };
    if (free === -1) slots.push(slot);
    else slots[free] = slot;
  }
  slot.busy = true;
  return slot;
}

/**
 * Reads a whole file through `handle` (whose current size is `size`). Large
 * files land in pooled memory; smaller ones, or when every pooled buffer is
 * busy, in a fresh Buffer like `handle.readFile()`.
 */
export async function readWholeFile(handle: FileHandle, size: number): Promise<PooledRead> {
  const slot = size >= READ_POOL_MIN_BYTES && size <= READ_POOL_MAX_BYTES ? take(size + 1) : null;
  if (!slot) return { bytes: await handle.readFile(), pooled: false, release: () => undefined };
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    slot.busy = false;
    scheduleDrop();
  };
  try {
    const capacity = slot.buffer.length;
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(slot.buffer, filled, capacity - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled === capacity) {
        // The file grew past the buffer since it was sized: read it the ordinary way.
        release();
        // (Positional reads leave the file position at 0, where readFile starts.)
        return { bytes: await handle.readFile(), pooled: false, release: () => undefined };
      }
    }
    return { bytes: slot.buffer.subarray(0, filled), pooled: true, release };
  } catch (error) {
    release();
    throw error;
  }
}

/** Buffers currently kept by the pool, and how many are busy (for tests). */
export function readPoolState(): { buffers: number; busy: number } {
  return { buffers: slots.length, busy: slots.filter((slot) => slot.busy).length };
}
