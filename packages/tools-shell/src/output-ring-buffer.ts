import { sequenceLength } from "./utf8.js";

/** The stream an output fragment came from. */
export type OutputStream = "stdout" | "stderr";

/** Adjacent output of one stream, decoded. */
export interface OutputFragment {
  stream: OutputStream;
  text: string;
}

/** One page read from an {@link OutputRingBuffer}. */
export interface OutputPage {
  /** Fragments in arrival order; adjacent fragments of a stream are merged. */
  output: OutputFragment[];
  /** Absolute offset after the last byte returned; pass it back as the next cursor. */
  cursor: number;
  /** Offset the page started at (after skipping evicted history). */
  start: number;
  /** True when history the caller asked for had already been evicted. */
  outputTruncated: boolean;
  /** True when more buffered output follows `cursor`. */
  hasMore: boolean;
  /** Bytes returned. */
  bytes: number;
}

interface Segment {
  stream: OutputStream;
  /** Absolute offset of the segment's first byte. */
  start: number;
}

/** Default capacity: 1 MiB. */
export const DEFAULT_RING_CAPACITY = 1024 * 1024;
/** Default page size: 64 KiB. */
export const DEFAULT_PAGE_BYTES = 64 * 1024;

/**
 * One bounded buffer over stdout and stderr in arrival order, addressed by
 * absolute byte offsets (cursors) that keep growing after old bytes are
 * evicted. Storage grows on demand up to `capacity`, then wraps; appends are
 * a memory copy, nothing is split into lines.
 *
 * Callers append whole UTF-8 characters (see `Utf8ChunkJoiner`); pages never
 * split a character.
 */
export class OutputRingBuffer {
  private storage: Buffer;
  private total = 0;
  private segments: Segment[] = [];
  private firstSegment = 0;

  constructor(readonly capacity = DEFAULT_RING_CAPACITY) {
    this.storage = Buffer.allocUnsafe(Math.min(capacity, 16 * 1024));
  }

  /** Absolute offset after the newest byte (total bytes ever appended). */
  get nextCursor(): number {
    return this.total;
  }

  /** Absolute offset of the oldest byte still held. */
  get oldestCursor(): number {
    return Math.max(0, this.total - this.capacity);
  }

  /** Appends a chunk; an oversize chunk keeps its tail, the oldest bytes are evicted first. */
  append(stream: OutputStream, data: Uint8Array): void {
    const length = data.length;
    if (length === 0) return;
    const last = this.segments[this.segments.length - 1];
    if (!last || last.stream !== stream) this.segments.push({ stream, start: this.total });
    let source = data;
    if (length > this.capacity) source = data.subarray(length - this.capacity);
    this.ensureStorage(Math.min(this.capacity, this.total + length));
    const size = this.storage.length;
    let position = (this.total + (length - source.length)) % size;
    let offset = 0;
    while (offset < source.length) {
      const count = Math.min(source.length - offset, size - position);
      Buffer.prototype.copy.call(source, this.storage, position, offset, offset + count);
      offset += count;
      position = (position + count) % size;
    }
    this.total += length;
    this.trimSegments();
  }

  /**
   * Reads up to `maxBytes` from `cursor` (default: the oldest byte). A cursor
   * past the end reads nothing; one before the oldest byte sets
   * `outputTruncated` and starts at the oldest byte.
   */
  read(cursor: number | undefined, maxBytes = DEFAULT_PAGE_BYTES): OutputPage {
    const oldest = this.oldestCursor;
    const requested = Math.min(cursor ?? oldest, this.total);
    const outputTruncated = requested < oldest;
    let from = Math.max(requested, oldest);
    from += this.skipContinuation(from);
    let to = Math.min(this.total, from + Math.max(4, maxBytes));
    if (to < this.total) to -= this.incompleteBefore(from, to);
    const output: OutputFragment[] = [];
    for (let index = this.firstSegment; index < this.segments.length && from < to; index += 1) {
      const segment = this.segments[index]!;
      const segmentEnd = this.segments[index + 1]?.start ?? this.total;
      const start = Math.max(from, segment.start);
      const end = Math.min(to, segmentEnd);
      if (end <= start) continue;
      const text = this.copy(start, end).toString("utf8");
      const previous = output[output.length - 1];
      if (previous && previous.stream === segment.stream) previous.text += text;
      else output.push({ stream: segment.stream, text });
    }
    return { output, cursor: to, start: from, outputTruncated, hasMore: to < this.total, bytes: to - from };
  }

  /** Bytes held after `cursor` (clamped to what is still held). */
  unreadFrom(cursor: number): number {
    return this.total - Math.max(cursor, this.oldestCursor);
  }

  private ensureStorage(needed: number): void {
    if (needed <= this.storage.length) return;
    // Before the first wrap the bytes sit linearly at [0, total).
    const next = Buffer.allocUnsafe(Math.min(this.capacity, Math.max(needed, this.storage.length * 2)));
    this.storage.copy(next, 0, 0, this.total);
    this.storage = next;
  }

  private copy(start: number, end: number): Buffer {
    const size = this.storage.length;
    const from = start % size;
    const length = end - start;
    if (from + length <= size) return this.storage.subarray(from, from + length);
    const out = Buffer.allocUnsafe(length);
    const first = size - from;
    this.storage.copy(out, 0, from, size);
    this.storage.copy(out, first, 0, length - first);
    return out;
  }

  private byteAt(offset: number): number {
    return this.storage[offset % this.storage.length]!;
  }

  /** Continuation bytes (0..3) at `from`: where the first whole character starts. Reads bytes in place, no copy. */
  private skipContinuation(from: number): number {
    let count = 0;
    while (count < 3 && from + count < this.total && sequenceLength(this.byteAt(from + count)) === 0) count += 1;
    return count;
  }

  /** Bytes of a character that starts before `to` (< total) and continues past it (0..3); see `incompleteUtf8Tail`. */
  private incompleteBefore(from: number, to: number): number {
    // A character is only incomplete at `to` if it continues past `to`.
    if (sequenceLength(this.byteAt(to)) !== 0) return 0;
    for (let index = to - 1; index >= Math.max(from, to - 3); index -= 1) {
      const length = sequenceLength(this.byteAt(index));
      if (length === 0) continue;
      return length > to - index ? to - index : 0;
    }
    return 0;
  }

  private trimSegments(): void {
    const oldest = this.oldestCursor;
    while (this.firstSegment + 1 < this.segments.length && this.segments[this.firstSegment + 1]!.start <= oldest) this.firstSegment += 1;
    if (this.firstSegment > 1024 && this.firstSegment * 2 > this.segments.length) {
      this.segments = this.segments.slice(this.firstSegment);
      this.firstSegment = 0;
    }
  }
}
