/**
 * The unread output of an interactive session: bytes in arrival order,
 * capped (the oldest are dropped and counted), read in pieces that never
 * split a UTF-8 character, and a wait for the next output.
 */

/** One read of an {@link OutputBuffer}. */
export interface OutputRead {
  /** The bytes read, as UTF-8 text (terminal escape sequences still in). */
  readonly text: string;
  /** Bytes read. */
  readonly bytes: number;
  /** Bytes still buffered after this read. */
  readonly remainingBytes: number;
  /** Bytes dropped unread since the previous read because the buffer was full. */
  readonly droppedBytes: number;
}

/** A capped FIFO of output bytes (see the module comment). */
export class OutputBuffer {
  readonly #capacity: number;
  #chunks: Buffer[] = [];
  #size = 0;
  #dropped = 0;
  #ended = false;
  #waiters = new Set<() => void>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Bytes buffered. */
  get size(): number {
    return this.#size;
  }

  /** True once {@link end} was called (no more output will come). */
  get ended(): boolean {
    return this.#ended;
  }

  /** Appends output, dropping the oldest bytes past the capacity. */
  push(data: Buffer): void {
    if (data.length === 0) return;
    this.#chunks.push(data);
    this.#size += data.length;
    while (this.#size > this.#capacity) {
      const first = this.#chunks[0]!;
      const excess = this.#size - this.#capacity;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#size -= first.length;
        this.#dropped += first.length;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#size -= excess;
        this.#dropped += excess;
      }
    }
    this.#wake();
  }

  /** Marks the end of the output (the channel closed); wakes waiters. */
  end(): void {
    this.#ended = true;
    this.#wake();
  }

  /** Takes up to `maxBytes` (cut back to a UTF-8 character boundary). */
  read(maxBytes: number): OutputRead {
    const all = Buffer.concat(this.#chunks, this.#size);
    let cut = Math.min(maxBytes, all.length);
    if (cut < all.length) {
      // Never end inside a multi-byte character (10xxxxxx bytes continue one).
      while (cut > 0 && (all[cut]! & 0xc0) === 0x80) cut -= 1;
      if (cut === 0) cut = Math.min(maxBytes, all.length);
    }
    const taken = all.subarray(0, cut);
    const rest = all.subarray(cut);
    this.#chunks = rest.length === 0 ? [] : [Buffer.from(rest)];
    this.#size = rest.length;
    const droppedBytes = this.#dropped;
    this.#dropped = 0;
    return { text: taken.toString("utf8"), bytes: taken.length, remainingBytes: rest.length, droppedBytes };
  }

  /**
   * Resolves once output is buffered or the output ended (at once if so
   * already), after `timeoutMs`, or when `signal` aborts.
   */
  waitForOutput(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.#size > 0 || this.#ended || timeoutMs <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener("abort", done, { once: true });
      this.#waiters.add(done);
    });
  }

  /**
   * Waits until no output has arrived for `quietMs` (so a read returns a
   * whole burst, e.g. a command's output and the next prompt), at most until
   * `deadline` (epoch ms) or the output ends.
   */
  async waitForQuiet(quietMs: number, deadline: number, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const before = this.#size + this.#dropped;
      const left = deadline - Date.now();
      if (left <= 0 || this.#ended || signal?.aborted) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(quietMs, left));
        signal?.addEventListener(
          "abort",
          () => {
            clearTimeout(timer);
            resolve();
          },
          { once: true },
        );
      });
      if (this.#size + this.#dropped === before) return;
    }
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}

/** Terminal control sequences (CSI, OSC, charset and keypad switches) the model has no use for. */
const TERMINAL_ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[()][0-9A-Za-z]|\u001b[=>78DEHM]|\u0007/g;

/** Session text for the model: escape sequences removed, CRLF as LF, a lone CR dropped before a newline. */
export function terminalTextForModel(text: string): string {
  return text.replace(TERMINAL_ESCAPES, "").replace(/\r+\n/g, "\n");
}
