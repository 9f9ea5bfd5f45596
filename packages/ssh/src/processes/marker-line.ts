/** Bytes kept while no marker has arrived. */
const KEEP_BYTES = 64 * 1024;

/**
 * Finds the wrapper's marker line at the head of one output stream of a
 * remote process and strips it: bytes before it (a login script's greeting)
 * are dropped, bytes after it pass through untouched (never split into
 * lines, never decoded).
 *
 * @example
 * const head = new MarkerLine("AT1f2e");
 * head.push(Buffer.from("motd\nAT1f2e P 42\nout")); // Buffer "out"; head.line === "AT1f2e P 42"
 */
export class MarkerLine {
  private pending: Buffer = Buffer.alloc(0);
  private found: string | undefined;
  private readonly marker: Buffer;

  constructor(marker: string) {
    this.marker = Buffer.from(marker);
  }

  /** The marker line without its newline, once seen. */
  get line(): string | undefined {
    return this.found;
  }

  /** Feeds a chunk; returns the bytes to pass on (empty while the marker line is still awaited). */
  push(data: Buffer): Buffer {
    if (this.found !== undefined) return data;
    this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    const at = this.pending.indexOf(this.marker);
    if (at < 0) {
      // Keep a bounded tail: enough to find a marker split across chunks and to quote an error.
      if (this.pending.length > KEEP_BYTES) this.pending = Buffer.from(this.pending.subarray(this.pending.length - KEEP_BYTES));
      return Buffer.alloc(0);
    }
    const end = this.pending.indexOf(10, at);
    if (end < 0) return Buffer.alloc(0);
    this.found = this.pending.subarray(at, end).toString("utf8");
    const rest = this.pending.subarray(end + 1);
    this.pending = Buffer.alloc(0);
    return rest;
  }

  /** What arrived without a marker line (the wrapper never ran), for an error message. */
  unmatched(): Buffer {
    return this.found === undefined ? this.pending : Buffer.alloc(0);
  }
}
