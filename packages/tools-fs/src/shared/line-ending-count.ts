/**
 * Counts line feeds and CRLF pairs of a buffer in one pass. The loop is
 * WebAssembly SIMD (src/wasm/eol-count.wat: 16 bytes per step, well under a
 * millisecond per 10 MB); a JavaScript loop is the fallback where
 * WebAssembly (or its SIMD) is unavailable.
 */
import { type EolKernel, createEolKernel } from "../fast-io/wasm-kernels.js";

/** Line feeds and how many of them end a CRLF pair. */
export interface LineEndingCounts {
  /** Every LF byte. */
  readonly lf: number;
  /** LF bytes preceded by a CR. */
  readonly crlf: number;
}

// Memory layout of the module: the LF count at 0, the CRLF count at 4, the
// byte before the chunk at DATA_OFFSET - 1, the chunk from DATA_OFFSET. The
// chunk is small so that the copy into the module stays in cache.
const DATA_OFFSET = 16;
const CHUNK = 128 * 1024;

/**
 * Line feeds in `bytes` and how many of them end a CRLF pair.
 *
 * @example
 * @param counter the WebAssembly instance to count with (a bundle passes its
 *   own, see fast-io.ts); default: the JavaScript loop for small inputs, a
 *   fresh instance for large ones; null for the JavaScript loop
 *
 * @example
 * countLineEndings(Buffer.from("a\r\nb\nc")); // { lf: 2, crlf: 1 }
 */
export function countLineEndings(bytes: Uint8Array, counter?: EolKernel | null): LineEndingCounts {
  const wasm = counter === undefined ? (bytes.length >= 64 * 1024 ? createEolKernel() : null) : counter;
  if (!wasm) return countLineEndingsJs(bytes);
  let lf = 0;
  let crlf = 0;
  let previous = 0;
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    const piece = bytes.subarray(offset, Math.min(bytes.length, offset + CHUNK));
    wasm.bytes[DATA_OFFSET - 1] = previous;
    wasm.bytes.set(piece, DATA_OFFSET);
    wasm.count(DATA_OFFSET, piece.length);
    lf += wasm.results[0]!;
    crlf += wasm.results[1]!;
    previous = piece[piece.length - 1]!;
  }
  return { lf, crlf };
}

/** Whether the WebAssembly SIMD counter is available (false: the JavaScript fallback). */
export function lineEndingCounterUsesWasm(): boolean {
  return createEolKernel() !== null;
}

/** The JavaScript implementation (the fallback), exported for tests comparing both. */
export function countLineEndingsJs(bytes: Uint8Array): LineEndingCounts {
  let lf = 0;
  let crlf = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    if (bytes[index] === 10) {
      lf += 1;
      if (index > 0 && bytes[index - 1] === 13) crlf += 1;
    }
  }
  return { lf, crlf };
}

/** Lines of content with `lf` line feeds, `size` bytes and last byte `lastByte` (split inclusively of `\n`). */
export function linesFromLineFeeds(lf: number, size: number, lastByte: number): number {
  if (size === 0) return 0;
  return lastByte === 10 ? lf : lf + 1;
}
