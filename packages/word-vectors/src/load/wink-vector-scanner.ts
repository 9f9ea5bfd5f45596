/**
 * An incremental scanner of the wink word-vector JSON layout, fed text in
 * chunks, so a 300 MB file is never parsed whole:
 *
 * ```
 * {"precision":8,"l2NormIndex":100,"wordIndex":101,"size":341479,"dimensions":100,
 *  "words":[...],"vectors":{"the":[100 floats, l2 norm, rank], ...},"unkVector":[...]}
 * ```
 *
 * Top-level numbers are read, other top-level values (the `words` array,
 * `unkVector`) are skipped without being built, and the `vectors` object is
 * read entry by entry. Only entries whose rank is below the wanted row count
 * are kept. While the entries arrive in rank order (0, 1, 2, ...) the scanner
 * stops as soon as it holds every wanted row; one entry out of order makes it
 * read the whole section instead, so a reordered file still loads right.
 */
import { SdkError } from "@agent-tools/core";
import { type JsonNumberResult, readJsonNumber } from "./json-number.js";
import type { WordVectorTable } from "./word-vector-table.js";

type Phase = "start" | "key" | "colon" | "value" | "skip" | "vectors" | "done";

const MAX_DIMENSION = 4096;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const EMPTY = Buffer.alloc(0);

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * Scans one wink word-vector file. The caller reads the file into a buffer,
 * calls {@link WinkVectorScanner.scan} with the bytes it holds, keeps the
 * bytes past the returned count in front of the next read, and calls
 * {@link WinkVectorScanner.finish} once `done` or at the end of the file.
 */
export class WinkVectorScanner {
  private buffer: Buffer = EMPTY;
  private position = 0;
  private phase: Phase = "start";
  private key = "";
  private readonly header = new Map<string, number>();
  private skipDepth = 0;
  private skipInString = false;
  private dimension = 0;
  private rankIndex = 0;
  private rowCount = 0;
  private fileWordCount = 0;
  private vectors = new Float32Array(0);
  private readonly rows = new Map<string, number>();
  private entriesSeen = 0;
  private inRankOrder = true;
  private stoppedEarly = false;
  /** Bytes of the file before the current view. */
  private viewStart = 0;
  private readonly number: JsonNumberResult = { value: 0, end: 0 };
  /** The numbers of the entry being read, reused from entry to entry. */
  private entryNumbers = new Float64Array(0);

  /**
   * @param wantedRows rows to keep: the entries of rank `0 .. wantedRows - 1`.
   * @param source names the file in error messages.
   */
  constructor(
    private readonly wantedRows: number,
    private readonly source: string,
  ) {}

  /** True once the scanner holds everything it needs (the caller stops reading). */
  get done(): boolean {
    return this.phase === "done";
  }

  /**
   * Scans `view` (the bytes left over from the last call, then new ones) as
   * far as it can; returns how many bytes it used. The rest (an entry cut by
   * the end of the view) must start the next view.
   */
  scan(view: Buffer): number {
    this.buffer = view;
    this.position = 0;
    while (this.phase !== "done" && this.step()) {
      // each step moves the scanner on; it stops when the view holds too little
    }
    const used = this.position;
    this.viewStart += used;
    this.buffer = EMPTY;
    return used;
  }

  /** The table read; throws when the file ended before its vectors section did. */
  finish(): WordVectorTable {
    if (this.phase !== "done") this.fail("it ended before its vectors section was complete");
    return {
      dimension: this.dimension,
      rowCount: this.rowCount,
      fileWordCount: this.fileWordCount,
      vectors: this.vectors,
      rows: this.rows,
      stoppedEarly: this.stoppedEarly,
      bytesRead: this.viewStart,
    };
  }

  /** One move of the state machine; false when the buffer holds too little to move. */
  private step(): boolean {
    switch (this.phase) {
      case "start":
        return this.expect(OPEN_BRACE, "key");
      case "key":
        return this.readKey();
      case "colon":
        return this.expect(COLON, "value");
      case "value":
        return this.readValue();
      case "skip":
        return this.skipValue();
      case "vectors":
        return this.readVectorEntry();
      default:
        return false;
    }
  }

  /** The next byte that is not whitespace (nor a comma when `commas`), or -1 at the end of the buffer. */
  private skipWhitespace(commas = false): number {
    const buffer = this.buffer;
    while (this.position < buffer.length) {
      const code = buffer[this.position]!;
      if (!isWhitespace(code) && !(commas && code === COMMA)) return code;
      this.position += 1;
    }
    return -1;
  }

  private expect(wanted: number, next: Phase): boolean {
    const code = this.skipWhitespace();
    if (code === -1) return false;
    if (code !== wanted) this.fail(`expected "${String.fromCharCode(wanted)}" at byte ${this.viewStart + this.position}`);
    this.position += 1;
    this.phase = next;
    return true;
  }

  /** The end index (exclusive) of the JSON string starting at `start`, or undefined when the buffer ends first. */
  private stringEnd(start: number): number | undefined {
    for (let index = start + 1; index < this.buffer.length; index += 1) {
      const code = this.buffer[index];
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) return index + 1;
    }
    return undefined;
  }

  private decodeString(start: number, end: number): string {
    const raw = this.buffer.toString("utf8", start + 1, end - 1);
    return raw.includes("\\") ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  private readKey(): boolean {
    const code = this.skipWhitespace(true);
    if (code === -1) return false;
    if (code === CLOSE_BRACE) this.fail("it has no vectors section");
    if (code !== QUOTE) this.fail(`expected a key, found "${String.fromCharCode(code)}"`);
    const end = this.stringEnd(this.position);
    if (end === undefined) return false;
    this.key = this.decodeString(this.position, end);
    this.position = end;
    this.phase = "colon";
    return true;
  }

  private readValue(): boolean {
    const code = this.skipWhitespace();
    if (code === -1) return false;
    if (this.key === "vectors") {
      if (code !== OPEN_BRACE) this.fail("its vectors section is not an object");
      this.position += 1;
      this.startVectors();
      this.phase = "vectors";
      return true;
    }
    if (code === OPEN_BRACKET || code === OPEN_BRACE || code === QUOTE) {
      this.skipDepth = 0;
      this.skipInString = false;
      this.phase = "skip";
      return true;
    }
    const comma = this.buffer.indexOf(COMMA, this.position);
    const brace = this.buffer.indexOf(CLOSE_BRACE, this.position);
    const limit = comma === -1 || (brace !== -1 && brace < comma) ? brace : comma;
    if (limit === -1) {
      if (this.buffer.length - this.position >= 64) this.fail(`the value of "${this.key}" is not a number, string, array or object`);
      return false;
    }
    const text = this.buffer.toString("latin1", this.position, limit).trim();
    const value = Number(text);
    if (text !== "" && Number.isFinite(value)) this.header.set(this.key, value);
    else if (!["true", "false", "null"].includes(text)) this.fail(`the value of "${this.key}" is not valid JSON`);
    this.position = limit;
    this.phase = "key";
    return true;
  }

  /** Skips a string, array or object value without building it; the state survives view ends. */
  private skipValue(): boolean {
    const buffer = this.buffer;
    let index = this.position;
    while (index < buffer.length) {
      if (this.skipInString) {
        // Jump to the next quote; it ends the string unless an odd run of backslashes precedes it.
        const quote = buffer.indexOf(QUOTE, index);
        if (quote === -1) break;
        let backslashes = 0;
        while (quote - backslashes - 1 >= index && buffer[quote - backslashes - 1] === BACKSLASH) backslashes += 1;
        index = quote + 1;
        if (backslashes % 2 === 1) continue;
        this.skipInString = false;
        if (this.skipDepth === 0) return this.endSkip(index);
        continue;
      }
      const code = buffer[index];
      index += 1;
      if (code === QUOTE) this.skipInString = true;
      else if (code === OPEN_BRACKET || code === OPEN_BRACE) this.skipDepth += 1;
      else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
        this.skipDepth -= 1;
        if (this.skipDepth === 0) return this.endSkip(index);
      }
    }
    // Keep an unfinished run of backslashes for the next view, so an escaped quote is still seen as one.
    let keep = 0;
    if (this.skipInString) while (keep < buffer.length - this.position && buffer[buffer.length - keep - 1] === BACKSLASH) keep += 1;
    this.position = buffer.length - keep;
    return false;
  }

  private endSkip(position: number): boolean {
    this.position = position;
    this.phase = "key";
    return true;
  }

  private headerInteger(name: string, fallback?: number): number {
    const value = this.header.get(name) ?? fallback;
    if (value === undefined || !Number.isInteger(value) || value < 0) this.fail(`its header has no valid "${name}" before the vectors section`);
    return value;
  }

  private startVectors(): void {
    this.dimension = this.headerInteger("dimensions");
    if (this.dimension < 1 || this.dimension > MAX_DIMENSION) this.fail(`"dimensions" ${this.dimension} is out of range`);
    this.rankIndex = this.headerInteger("wordIndex");
    if (this.rankIndex < this.dimension) this.fail(`"wordIndex" ${this.rankIndex} points into the vector components`);
    this.fileWordCount = this.headerInteger("size", this.wantedRows);
    this.rowCount = Math.min(this.wantedRows, this.fileWordCount);
    this.vectors = new Float32Array(this.rowCount * this.dimension);
    if (this.rowCount === 0) this.finishVectors(true);
  }

  private finishVectors(early: boolean): boolean {
    this.stoppedEarly = early;
    this.phase = "done";
    return true;
  }

  private readVectorEntry(): boolean {
    const code = this.skipWhitespace(true);
    if (code === -1) return false;
    if (code === CLOSE_BRACE) return this.finishVectors(false);
    if (code !== QUOTE) this.fail(`expected a word in the vectors section, found "${String.fromCharCode(code)}"`);
    const start = this.position;
    const keyEnd = this.stringEnd(start);
    if (keyEnd === undefined) return false;
    const close = this.buffer.indexOf(CLOSE_BRACKET, keyEnd);
    if (close === -1) return false;
    const word = this.decodeString(start, keyEnd);
    let index = keyEnd;
    while (index < close && isWhitespace(this.buffer[index]!)) index += 1;
    if (this.buffer[index] !== COLON) this.fail(`the entry of "${word}" has no ":"`);
    index += 1;
    while (index < close && isWhitespace(this.buffer[index]!)) index += 1;
    if (this.buffer[index] !== OPEN_BRACKET) this.fail(`the entry of "${word}" is not an array`);
    this.position = close + 1;
    return this.keepEntry(word, index + 1, close);
  }

  /** Reads the numbers of one entry (bytes `from .. close`) and keeps the vector when its rank is wanted. */
  private keepEntry(word: string, from: number, close: number): boolean {
    const count = this.parseEntry(word, from, close);
    if (count <= this.rankIndex) this.fail(`the entry of "${word}" has ${count} numbers, fewer than ${this.rankIndex + 1}`);
    const numbers = this.entryNumbers;
    const rank = numbers[this.rankIndex]!;
    if (!Number.isInteger(rank) || rank < 0) this.fail(`the entry of "${word}" has no valid rank`);
    if (rank !== this.entriesSeen) this.inRankOrder = false;
    this.entriesSeen += 1;
    if (rank < this.rowCount && !this.rows.has(word)) {
      const offset = rank * this.dimension;
      for (let component = 0; component < this.dimension; component += 1) this.vectors[offset + component] = numbers[component]!;
      this.rows.set(word, rank);
    }
    if (this.inRankOrder && this.entriesSeen >= this.rowCount) return this.finishVectors(this.rowCount < this.fileWordCount);
    return true;
  }

  /** Reads the numbers of one entry into {@link entryNumbers} (those past the rank are counted, not kept); returns their count. */
  private parseEntry(word: string, from: number, close: number): number {
    if (this.entryNumbers.length < this.rankIndex + 1) this.entryNumbers = new Float64Array(this.rankIndex + 1);
    const numbers = this.entryNumbers;
    const buffer = this.buffer;
    const out = this.number;
    let count = 0;
    let index = from;
    while (index < close) {
      while (index < close && isWhitespace(buffer[index]!)) index += 1;
      if (index === close && count === 0) break;
      if (!readJsonNumber(buffer, index, close, out) || !Number.isFinite(out.value)) this.fail(`number ${count} of "${word}" is not a finite number`);
      if (count < numbers.length) numbers[count] = out.value;
      count += 1;
      index = out.end;
      while (index < close && isWhitespace(buffer[index]!)) index += 1;
      if (index < close) {
        if (buffer[index] !== COMMA) this.fail(`number ${count - 1} of "${word}" is followed by "${String.fromCharCode(buffer[index]!)}"`);
        index += 1;
      }
    }
    return count;
  }

  private fail(reason: string): never {
    throw new SdkError("unsupported", `${this.source} is not a word-vector file of the wink layout: ${reason}.`, { file: this.source });
  }
}
