/**
 * The WebAssembly kernels of the file tools: FNV-1a 64 (src/wasm/fnv-hash.wat),
 * the SIMD line-ending counter (src/wasm/eol-count.wat) and Grep's SIMD byte
 * scanner (src/wasm/grep-scan.wat).
 *
 * A compiled `WebAssembly.Module` is immutable, so each is compiled once per
 * process and cached here. Instances carry state (their memory holds the
 * last chunk copied in, and grows), so they are created per owner: a
 * bundle's {@link createFastIo} keeps one of each, and a standalone
 * `ContentHasher` makes its own.
 */
import { EOL_COUNT_WASM } from "../wasm/eol-count.wasm.js";
import { FNV_HASH_WASM } from "../wasm/fnv-hash.wasm.js";
import { GREP_SCAN_WASM } from "../wasm/grep-scan.wasm.js";

interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

interface WasmApi {
  Module: new (bytes: Uint8Array) => unknown;
  Instance: new (module: unknown) => { exports: Record<string, unknown> };
}

/** An FNV-1a 64 instance: `fnv(pointer, length, state)` over its own memory (data from address 8, LF count stored at 0). */
export interface FnvKernel {
  readonly memory: WasmMemory;
  fnv(pointer: number, length: number, state: bigint): bigint;
}

/** A line-ending counter instance: `count(pointer, length)` stores the LF and CRLF counts at 0 and 4. */
export interface EolKernel {
  readonly bytes: Uint8Array;
  readonly results: Uint32Array;
  count(pointer: number, length: number): void;
}

const api = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
// Compiled modules (immutable, stateless), compiled on first use; null where WebAssembly (or SIMD) is unavailable.
const compiled = new Map<Uint8Array, unknown>();

function instantiate(bytes: Uint8Array): Record<string, unknown> | null {
  if (!api) return null;
  let module = compiled.get(bytes);
  try {
    if (module === undefined) compiled.set(bytes, (module = new api.Module(bytes)));
    if (module === null) return null;
    return new api.Instance(module).exports;
  } catch {
    compiled.set(bytes, null);
    return null;
  }
}

/** A new FNV-1a 64 instance, or null without WebAssembly. */
export function createFnvKernel(): FnvKernel | null {
  const exports = instantiate(FNV_HASH_WASM) as { mem: WasmMemory; fnv(pointer: number, length: number, state: bigint): bigint } | null;
  return exports && { memory: exports.mem, fnv: exports.fnv };
}

/** A new line-ending counter instance, or null without WebAssembly SIMD. */
export function createEolKernel(): EolKernel | null {
  const exports = instantiate(EOL_COUNT_WASM) as { memory: WasmMemory; count(pointer: number, length: number): void } | null;
  // The memory never grows, so these views stay valid.
  return exports && { bytes: new Uint8Array(exports.memory.buffer), results: new Uint32Array(exports.memory.buffer, 0, 2), count: exports.count };
}

/** Grep's byte scanner instance (see src/wasm/grep-scan.wat for the memory layout); its memory grows from JavaScript. */
export interface GrepScanExports {
  readonly memory: WasmMemory;
  /** LF bytes in `[pointer, pointer + length)`. */
  lines(pointer: number, length: number): number;
  /** Offset from `pointer` just past the `count`-th LF (count >= 1) in `[pointer, pointer + length)`, or -1. */
  skip(pointer: number, length: number, count: number): number;
  /** Offset from `pointer` of the first occurrence of the needle (written into the memory) in `[pointer, pointer + length)`, or -1. */
  find(pointer: number, length: number): number;
}

/** A new Grep byte scanner instance, or null without WebAssembly SIMD. */
export function createGrepScanExports(): GrepScanExports | null {
  return instantiate(GREP_SCAN_WASM) as GrepScanExports | null;
}
