/**
 * The pure TypeScript Grep engine's byte scanner: files are read straight
 * into the memory of a WebAssembly SIMD module (src/wasm/grep-scan.wat),
 * which finds a literal (both ASCII cases of its letters in one pass when
 * case is ignored) and counts line feeds 16 bytes per step, with no copy.
 * One instance per thread (the main thread's per call, each worker its
 * own); undefined where WebAssembly SIMD is unavailable (the callers fall
 * back to `Buffer.indexOf`).
 */
import { type GrepScanExports, createGrepScanExports } from "../fast-io/wasm-kernels.js";

/** Where the needle starts in the module's memory. */
const NEEDLE = 1024;
/** Where the needle's case mask starts. */
const MASK = 17408;
/** Longest needle the module holds. */
export const SCAN_NEEDLE_MAX = 16384;
/** Where file bytes start (page 1). */
const DATA = 65536;
const PAGE = 65536;
/** Largest file read into the module's memory; a larger one is read into a plain buffer. */
export const SCAN_DATA_MAX = 64 * 1024 * 1024;

/** A needle written into a {@link GrepScanKernel} (see {@link GrepScanKernel.needle}). */
export interface ScanNeedle {
  /** The needle's bytes, letters lowercase where case is ignored. */
  readonly bytes: Uint8Array;
  /** Per byte: 0x20 where a letter matches in either case, else 0. */
  readonly mask: Uint8Array;
  /** The two bytes the vector loop tests first (the rarest ones). */
  readonly first: number;
  readonly second: number;
}

/** One thread's byte scanner: see the module comment. */
export class GrepScanKernel {
  private view: Buffer;
  private current: ScanNeedle | undefined;

  private constructor(private readonly wasm: GrepScanExports) {
    this.view = Buffer.from(wasm.memory.buffer);
  }

  /** A scanner, or undefined without WebAssembly SIMD. */
  static create(): GrepScanKernel | undefined {
    const wasm = createGrepScanExports();
    return wasm ? new GrepScanKernel(wasm) : undefined;
  }

  /**
   * A view of at least `size` bytes of the module's memory where file bytes
   * go (the memory grows as needed, keeping what the previous view held);
   * any earlier view may be detached by the growth. `size` at most
   * {@link SCAN_DATA_MAX}.
   */
  data(size: number): Buffer {
    const needed = DATA + size;
    if (this.wasm.memory.buffer.byteLength < needed) {
      this.wasm.memory.grow(Math.ceil((needed - this.wasm.memory.buffer.byteLength) / PAGE));
    }
    if (this.view.buffer !== this.wasm.memory.buffer) this.view = Buffer.from(this.wasm.memory.buffer);
    return this.view.subarray(DATA);
  }

  /** Whether `bytes` lie in this module's memory (then {@link lines} and {@link find} scan them in place). */
  holds(bytes: Uint8Array): boolean {
    return bytes.buffer === this.wasm.memory.buffer && bytes.byteOffset >= DATA;
  }

  /** Line feeds in `bytes[from, to)`; `bytes` must be {@link holds held}. */
  lines(bytes: Uint8Array, from: number, to: number): number {
    return to > from ? this.wasm.lines(bytes.byteOffset + from, to - from) : 0;
  }

  /** The offset just past the `count`-th line feed (count >= 1) at or after `from` in `bytes` (held), or -1. */
  skipLines(bytes: Uint8Array, from: number, count: number): number {
    if (from >= bytes.length) return -1;
    const found = this.wasm.skip(bytes.byteOffset + from, bytes.length - from, count);
    return found === -1 ? -1 : from + found;
  }

  /**
   * The first offset at or after `from` where `needle` occurs in `bytes`
   * (held), or -1. The needle is written into the module when it is not the
   * one written last.
   */
  find(bytes: Uint8Array, from: number, needle: ScanNeedle): number {
    if (this.current !== needle) {
      if (this.view.buffer !== this.wasm.memory.buffer) this.view = Buffer.from(this.wasm.memory.buffer);
      this.view.set(needle.bytes, NEEDLE);
      this.view.set(needle.mask, MASK);
      this.view.writeInt32LE(needle.bytes.length, 0);
      this.view.writeInt32LE(needle.first, 4);
      this.view.writeInt32LE(needle.second, 8);
      this.current = needle;
    }
    if (from >= bytes.length) return -1;
    const found = this.wasm.find(bytes.byteOffset + from, bytes.length - from);
    return found === -1 ? -1 : from + found;
  }
}

/** Line feeds in `bytes[from, to)`: in place through `kernel` when it holds the bytes, else with `Buffer.indexOf`. */
export function countLineFeeds(bytes: Buffer, from: number, to: number, kernel: GrepScanKernel | undefined): number {
  if (kernel?.holds(bytes)) return kernel.lines(bytes, from, to);
  let count = 0;
  for (let feed = bytes.indexOf(10, from); feed !== -1 && feed < to; feed = bytes.indexOf(10, feed + 1)) count += 1;
  return count;
}

/** The offset just past the `count`-th line feed (count >= 1) at or after `from`, or -1: through `kernel` when it holds the bytes. */
export function skipLineFeeds(bytes: Buffer, from: number, count: number, kernel: GrepScanKernel | undefined): number {
  if (kernel?.holds(bytes)) return kernel.skipLines(bytes, from, count);
  let at = from;
  for (let left = count; left > 0; left -= 1) {
    const feed = bytes.indexOf(10, at);
    if (feed === -1) return -1;
    at = feed + 1;
  }
  return at;
}
