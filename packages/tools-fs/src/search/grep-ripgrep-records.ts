/**
 * Splits ripgrep's `--heading --null` output into per-file records as it
 * arrives, chunk by chunk, without first joining the chunks: a record that
 * lies inside one chunk is a view of it, and only a record that spans
 * chunks is copied (a search printing 11 MB would otherwise copy 11 MB of
 * fresh memory).
 *
 * A record is `path\0` followed by `N:text` / `N-text` / `--` lines; records
 * are separated by an empty line: "\n\n", or "\n\r\n" (ripgrep's `--crlf`
 * on one thread). No record line is ever empty, and a separator is only
 * looked for after the path's NUL (a path may hold line feeds).
 */

/** Receives one record: `buffer[bodyStart, bodyEnd)` are its lines (the last one ends with "\n"). */
export type RipgrepRecordSink = (path: string, buffer: Buffer, bodyStart: number, bodyEnd: number) => void;

const LF = 10;
const CR = 13;

/**
 * The record splitter: `push` every chunk in order, then `end`.
 *
 * @example
 * const splitter = new RipgrepRecordSplitter((path, buffer, start, end) => console.log(path, buffer.toString("utf8", start, end)));
 * splitter.push(Buffer.from("./a.ts\u00001:x\n\n./b"));
 * splitter.push(Buffer.from(".ts\u00002:y\n"));
 * splitter.end(); // a.ts "1:x\n", then b.ts "2:y\n"
 */
export class RipgrepRecordSplitter {
  /** Bytes of the unfinished record from earlier chunks. */
  private pieces: Buffer[] = [];
  private piecesLength = 0;
  /** Offset of the unfinished record's NUL within it, or -1 while its path goes on. */
  private nulAt = -1;
  /** Its last two bytes (-1 when absent), to find a separator split between chunks. */
  private last = -1;
  private beforeLast = -1;

  constructor(private readonly sink: RipgrepRecordSink) {}

  /** Takes the next chunk of output (kept by reference: do not reuse it). */
  push(chunk: Buffer): void {
    const length = chunk.length;
    let position = 0; // where the current record continues in this chunk
    // A record carried over from earlier chunks.
    if (this.piecesLength > 0) {
      if (this.nulAt === -1) {
        const nul = chunk.indexOf(0);
        if (nul === -1) {
          this.carry(chunk, 0);
          return;
        }
        this.nulAt = this.piecesLength + nul;
      }
      const separator = this.separatorAcross(chunk);
      if (separator) {
        this.emitCarried(chunk, separator.recordEndInChunk);
        position = separator.nextInChunk;
      } else {
        const bodyFrom = Math.max(0, this.nulAt + 1 - this.piecesLength);
        const found = findSeparator(chunk, bodyFrom);
        if (found.start === -1) {
          this.carry(chunk, 0);
          return;
        }
        this.emitCarried(chunk, found.start + 1);
        position = found.start + found.length;
      }
    }
    // Records that start in this chunk; the cached separator positions are searched again only once passed.
    let nextLf = -2;
    let nextCrlf = -2;
    while (position < length) {
      const nul = chunk.indexOf(0, position);
      if (nul === -1) {
        this.carry(chunk, position, -1);
        return;
      }
      if (nextLf !== -1 && nextLf < nul) nextLf = chunk.indexOf("\n\n", nul + 1, "latin1");
      if (nextCrlf !== -1 && nextCrlf < nul) nextCrlf = chunk.indexOf("\n\r\n", nul + 1, "latin1");
      const separator = nextLf === -1 ? nextCrlf : nextCrlf === -1 ? nextLf : Math.min(nextLf, nextCrlf);
      if (separator === -1) {
        this.carry(chunk, position, nul - position);
        return;
      }
      this.sink(pathOf(chunk, position, nul), chunk, nul + 1, separator + 1);
      position = separator + (separator === nextLf ? 2 : 3);
    }
  }

  /** No more output: the last record (without a separator) is passed on. */
  end(): void {
    if (this.piecesLength === 0 || this.nulAt === -1) {
      this.reset();
      return;
    }
    const record = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces, this.piecesLength);
    this.sink(pathOf(record, 0, this.nulAt), record, this.nulAt + 1, record.length);
    this.reset();
  }

  /** Keeps `chunk[from..]` as (part of) the unfinished record; `nulInPart` is its NUL's offset when this part starts the record. */
  private carry(chunk: Buffer, from: number, nulInPart?: number): void {
    if (from >= chunk.length) return;
    const part = from === 0 ? chunk : chunk.subarray(from);
    if (nulInPart !== undefined) this.nulAt = nulInPart;
    this.pieces.push(part);
    this.piecesLength += part.length;
    if (part.length >= 2) {
      this.beforeLast = part[part.length - 2]!;
      this.last = part[part.length - 1]!;
    } else {
      this.beforeLast = this.last;
      this.last = part[0]!;
    }
  }

  /**
   * A separator that starts in the carried bytes and ends in `chunk`:
   * where the record ends in `chunk` (0 or less: inside the carried bytes)
   * and where the next record starts.
   */
  private separatorAcross(chunk: Buffer): { recordEndInChunk: number; nextInChunk: number } | undefined {
    const carried = this.piecesLength;
    const bodyStart = this.nulAt + 1;
    const first = chunk[0];
    const second = chunk.length > 1 ? chunk[1] : -1;
    // "\n" | "\n" or "\n" | "\r\n": the separator starts at the last carried byte.
    if (this.last === LF && carried - 1 >= bodyStart) {
      if (first === LF) return { recordEndInChunk: 0, nextInChunk: 1 };
      if (first === CR && second === LF) return { recordEndInChunk: 0, nextInChunk: 2 };
    }
    // "\n\r" | "\n": at the byte before.
    if (this.beforeLast === LF && this.last === CR && carried - 2 >= bodyStart && first === LF) return { recordEndInChunk: -1, nextInChunk: 1 };
    return undefined;
  }

  /** Passes on the carried record plus `chunk[0, endInChunk)` (a negative end cuts carried bytes). */
  private emitCarried(chunk: Buffer, endInChunk: number): void {
    const parts = endInChunk > 0 ? [...this.pieces, chunk.subarray(0, endInChunk)] : this.pieces;
    const total = this.piecesLength + endInChunk;
    const whole = parts.length === 1 ? parts[0]! : Buffer.concat(parts, Math.max(total, this.piecesLength));
    this.sink(pathOf(whole, 0, this.nulAt), whole, this.nulAt + 1, total);
    this.reset();
  }

  private reset(): void {
    this.pieces = [];
    this.piecesLength = 0;
    this.nulAt = -1;
    this.last = -1;
    this.beforeLast = -1;
  }
}

/** The earliest separator in `chunk` from `from`. */
function findSeparator(chunk: Buffer, from: number): { start: number; length: number } {
  const lf = chunk.indexOf("\n\n", from, "latin1");
  const crlf = chunk.indexOf("\n\r\n", from, "latin1");
  if (lf === -1) return { start: crlf, length: 3 };
  if (crlf === -1 || lf < crlf) return { start: lf, length: 2 };
  return { start: crlf, length: 3 };
}

/** The path of a record, without ripgrep's leading "./". */
function pathOf(buffer: Buffer, start: number, nul: number): string {
  const from = nul - start >= 2 && buffer[start] === 46 && buffer[start + 1] === 47 ? start + 2 : start;
  return buffer.toString("utf8", from, nul);
}
