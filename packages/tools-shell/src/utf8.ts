/** Length of the UTF-8 sequence a lead byte starts; 0 for a continuation byte. */
export function sequenceLength(byte: number): number {
  if (byte < 0x80) return 1;
  if (byte < 0xc0) return 0;
  if (byte < 0xe0) return 2;
  if (byte < 0xf0) return 3;
  return 4;
}

/**
 * How many bytes at the end of `data` form an incomplete UTF-8 sequence
 * (0..3). Invalid bytes count as complete so they are never held back.
 */
export function incompleteUtf8Tail(data: Uint8Array, end = data.length): number {
  const limit = Math.max(0, end - 3);
  for (let index = end - 1; index >= limit; index -= 1) {
    const length = sequenceLength(data[index]!);
    if (length === 0) continue;
    return length > end - index ? end - index : 0;
  }
  return 0;
}

/** Number of continuation bytes at the start of `data` (0..3), i.e. where the first whole character starts. */
export function leadingContinuationBytes(data: Uint8Array, start = 0, end = data.length): number {
  let count = 0;
  while (count < 3 && start + count < end && sequenceLength(data[start + count]!) === 0) count += 1;
  return count;
}

/**
 * Splits a stream's chunks so none ends inside a UTF-8 character: the
 * incomplete tail of one chunk is carried to the next chunk of the same
 * stream and flushed at the end.
 */
export class Utf8ChunkJoiner {
  private carry: Buffer | undefined;

  /** Returns the complete part of `carry + data` (maybe empty) and keeps the rest. */
  push(data: Buffer): Buffer {
    let whole = data;
    if (this.carry) {
      whole = Buffer.concat([this.carry, data]);
      this.carry = undefined;
    }
    return this.holdTail(whole);
  }

  /**
   * The same bytes as {@link push}, without copying `data`: passes the
   * complete part of `carry + data` to `emit` as up to two pieces (the
   * carried character completed from the head of `data`, at most 4 bytes,
   * then the rest of `data` as a view). Only the carry is ever copied.
   */
  pushEach(data: Buffer, emit: (piece: Buffer) => void): void {
    let rest = data;
    const carry = this.carry;
    if (carry) {
      // The carry starts with a lead byte; take the continuation bytes it still needs.
      const needed = sequenceLength(carry[0]!) - carry.length;
      let taken = 0;
      while (taken < needed && taken < data.length && sequenceLength(data[taken]!) === 0) taken += 1;
      if (taken < needed && taken === data.length) {
        this.carry = Buffer.concat([carry, data]);
        return;
      }
      this.carry = undefined;
      // Complete, or cut short by a byte that is no continuation: either way it is emitted (invalid bytes are never held back).
      emit(Buffer.concat([carry, data.subarray(0, taken)]));
      rest = data.subarray(taken);
    }
    const whole = this.holdTail(rest);
    if (whole.length > 0) emit(whole);
  }

  private holdTail(whole: Buffer): Buffer {
    const tail = incompleteUtf8Tail(whole);
    if (tail === 0) return whole;
    this.carry = Buffer.from(whole.subarray(whole.length - tail));
    return whole.subarray(0, whole.length - tail);
  }

  /** The held-back bytes at the end of the stream (maybe invalid UTF-8). */
  flush(): Buffer | undefined {
    const rest = this.carry;
    this.carry = undefined;
    return rest;
  }
}
