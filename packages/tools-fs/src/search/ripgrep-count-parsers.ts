/**
 * Parsers of ripgrep's counting output (`--count`, and the line numbers of
 * a files page), fed chunk by chunk as ripgrep prints, so a search's counts
 * are known while it runs. A record may straddle chunks.
 */
import { CountedFileHits } from "./grep-counted-hits.js";

/** Called with each file as soon as its record is complete: its path and matching lines. */
export type RipgrepFileCounted = (path: string, matchCount: number) => void;

/**
 * A file's path: the bytes of `chunk` from `start` to `end` after the
 * `parts` of earlier chunks (without a leading `./`). Empties `parts`.
 */
function decodePath(parts: Buffer[], chunk: Buffer, start: number, end: number): string {
  let name: string;
  if (parts.length === 0) name = chunk.toString("utf8", start, end);
  else {
    parts.push(chunk.subarray(start, end));
    name = Buffer.concat(parts).toString("utf8");
    parts.length = 0;
  }
  return name.startsWith("./") ? name.slice(2) : name;
}

function isDigit(byte: number): boolean {
  return byte >= 48 && byte <= 57;
}

/** A file of `--count --null` output. */
export interface RipgrepCountRecord {
  path: string;
  count: number;
}

/** Parses `--count --null` output: `path\0N` lines. */
export class RipgrepCountParser {
  private readonly files: RipgrepCountRecord[] = [];
  private readonly pathParts: Buffer[] = [];
  private path: string | undefined;
  private value = 0;
  private inNumber = false;

  constructor(private readonly onFile?: RipgrepFileCounted) {}

  push(chunk: Buffer): void {
    let position = 0;
    while (position < chunk.length) {
      if (this.path === undefined) {
        const nul = chunk.indexOf(0, position);
        if (nul === -1) {
          this.pathParts.push(chunk.subarray(position));
          return;
        }
        this.path = decodePath(this.pathParts, chunk, position, nul);
        this.value = 0;
        this.inNumber = true;
        position = nul + 1;
        continue;
      }
      const byte = chunk[position]!;
      if (byte === 10) {
        this.finishFile();
        position += 1;
      } else if (this.inNumber && isDigit(byte)) {
        this.value = this.value * 10 + (byte - 48);
        position += 1;
      } else {
        // The number ended: skip to the end of the line.
        this.inNumber = false;
        const newline = chunk.indexOf(10, position);
        position = newline === -1 ? chunk.length : newline;
      }
    }
  }

  /** Every file counted, in ripgrep's order. */
  end(): RipgrepCountRecord[] {
    if (this.path !== undefined) this.finishFile();
    return this.files;
  }

  private finishFile(): void {
    const path = this.path!;
    this.files.push({ path, count: this.value });
    this.path = undefined;
    this.onFile?.(path, this.value);
  }
}

/** Where {@link RipgrepLineNumberParser} is inside a file's block. */
const LineState = { Path: 0, RecordStart: 1, Digits: 2, SkipLine: 3 } as const;
type LineState = (typeof LineState)[keyof typeof LineState];

/**
 * Parses `--heading --null --line-number --only-matching --replace ''`
 * output (`path\0` then an `N:` line per match, a blank line between
 * files) into each file's matching lines (a line matched twice counts once)
 * and first matching line.
 */
export class RipgrepLineNumberParser {
  private readonly files: CountedFileHits[] = [];
  private state: LineState = LineState.Path;
  private readonly pathParts: Buffer[] = [];
  private path = "";
  private value = 0;
  private lines = 0;
  private first = 0;
  private previous = -1;

  constructor(private readonly onFile?: RipgrepFileCounted) {}

  push(chunk: Buffer): void {
    let position = 0;
    while (position < chunk.length) {
      switch (this.state) {
        case LineState.Path: {
          const nul = chunk.indexOf(0, position);
          if (nul === -1) {
            this.pathParts.push(chunk.subarray(position));
            return;
          }
          this.path = decodePath(this.pathParts, chunk, position, nul);
          this.lines = 0;
          this.first = 0;
          this.previous = -1;
          this.state = LineState.RecordStart;
          position = nul + 1;
          break;
        }
        case LineState.RecordStart:
          if (chunk[position] === 10) {
            // The blank line between files.
            this.finishFile();
            position += 1;
          } else {
            this.value = 0;
            this.state = LineState.Digits;
          }
          break;
        case LineState.Digits: {
          const byte = chunk[position]!;
          if (isDigit(byte)) {
            this.value = this.value * 10 + (byte - 48);
            position += 1;
          } else {
            this.record();
            this.state = LineState.SkipLine;
          }
          break;
        }
        case LineState.SkipLine: {
          const newline = chunk.indexOf(10, position);
          if (newline === -1) return;
          this.state = LineState.RecordStart;
          position = newline + 1;
          break;
        }
      }
    }
  }

  /** Every file, in ripgrep's order. */
  end(): CountedFileHits[] {
    if (this.state === LineState.Digits) this.record();
    if (this.state !== LineState.Path) this.finishFile();
    return this.files;
  }

  private record(): void {
    if (this.value === this.previous) return;
    if (this.lines === 0) this.first = this.value;
    this.lines += 1;
    this.previous = this.value;
  }

  private finishFile(): void {
    this.files.push(new CountedFileHits(this.path, this.lines, this.first));
    this.state = LineState.Path;
    this.onFile?.(this.path, this.lines);
  }
}
