/**
 * The off-thread hashing worker (started by {@link HashWorker} of
 * hash-worker.ts). It runs the same FNV-1a 64 WebAssembly module as
 * content-hash.ts (src/wasm/fnv-hash.wat).
 *
 * Protocol: each message `{ id, pieces }` (Uint8Arrays, hashed in order as
 * one content) is answered with `{ id, released: true }` once the worker has
 * copied the pieces (the sender may then reuse their memory), then with
 * `{ id, hash }` (16 hex characters) or `{ id, error }`. A message
 * `{ id, fd, size, from, state }` hashes an open file instead (positional
 * reads of its bytes `from` up to `size`, straight into the WebAssembly
 * memory, continuing from the FNV state `state` of the bytes before `from`,
 * 16 hex characters) and is answered
 * with `{ id, hash, bytes, stat }`: the bytes hashed and the file's fstat
 * taken after the last read, so the sender can tell whether the file changed
 * while it was hashed.
 */
import { fstatSync, readSync, readlinkSync } from "node:fs";
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { FNV_HASH_WASM } from "../wasm/fnv-hash.wasm.js";

// Hashing is not urgent: on Linux this thread (only) gives way to the main
// thread, libuv's I/O threads and other processes when the CPU is contended.
try {
  const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  if (tid > 0) setPriority(tid, 10);
} catch {}

const DATA_OFFSET = 8;
const CHUNK = 4 * 1024 * 1024;
/** The little of the WebAssembly API this worker uses (the package compiles without the DOM library). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => unknown;
  Instance: new (module: unknown) => { exports: Record<string, unknown> };
}
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: WasmApi };
const { mem, fnv } = new wasm.Instance(new wasm.Module(FNV_HASH_WASM)).exports as {
  mem: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  fnv: (offset: number, length: number, state: bigint) => bigint;
};
const OFFSET_BASIS = BigInt.asIntN(64, 0xcbf29ce484222325n);

function ensure(bytes: number): void {
  const pages = Math.ceil((bytes + DATA_OFFSET) / 65536) - mem.buffer.byteLength / 65536;
  if (pages > 0) mem.grow(pages);
}

/** Hashes `pieces` as one content; says `released` once they are copied, when they fit at once. */
function hashPieces(id: number, pieces: readonly Uint8Array[]): string {
  let state = OFFSET_BASIS;
  let total = 0;
  for (const piece of pieces) total += piece.length;
  let whole = false;
  try {
    ensure(total);
    whole = true;
  } catch {}
  if (whole) {
    // Copy everything first (fast), so the sender may reuse its memory, then hash.
    const view = new Uint8Array(mem.buffer);
    let at = DATA_OFFSET;
    for (const piece of pieces) {
      view.set(piece, at);
      at += piece.length;
    }
    parentPort?.postMessage({ id, released: true });
    state = fnv(DATA_OFFSET, total, state);
  } else {
    for (const bytes of pieces) {
      for (let offset = 0; offset < bytes.length; offset += CHUNK) {
        const piece = bytes.subarray(offset, Math.min(bytes.length, offset + CHUNK));
        ensure(piece.length);
        new Uint8Array(mem.buffer, DATA_OFFSET, piece.length).set(piece);
        state = fnv(DATA_OFFSET, piece.length, state);
      }
    }
  }
  return BigInt.asUintN(64, state).toString(16).padStart(16, "0");
}

/** A file to hash: bytes `from` up to `size` of `fd`, continuing from `state` (hex), if given. */
interface FileJob {
  fd: number;
  size: number;
  from?: number;
  state?: string;
}

/** Hashes bytes `from` up to `size` of the open file (fewer if it ends first); its fstat is taken after the reads. */
function hashFile(id: number, { fd, size, from = 0, state: start }: FileJob) {
  let state = start === undefined ? OFFSET_BASIS : BigInt.asIntN(64, BigInt(`0x${start}`));
  let bytes = from;
  ensure(CHUNK);
  while (bytes < size) {
    const count = readSync(fd, new Uint8Array(mem.buffer, DATA_OFFSET, Math.min(CHUNK, size - bytes)), 0, Math.min(CHUNK, size - bytes), bytes);
    if (count === 0) break;
    state = fnv(DATA_OFFSET, count, state);
    bytes += count;
  }
  const { mtimeMs, ctimeMs, ino, size: sizeAfter } = fstatSync(fd);
  return { id, hash: BigInt.asUintN(64, state).toString(16).padStart(16, "0"), bytes, stat: { mtimeMs, ctimeMs, ino, size: sizeAfter } };
}

parentPort?.on("message", ({ id, pieces, file }: { id: number; pieces?: Uint8Array[]; file?: FileJob }) => {
  try {
    if (file !== undefined) parentPort?.postMessage(hashFile(id, file));
    else parentPort?.postMessage({ id, hash: hashPieces(id, pieces ?? []) });
  } catch (error) {
    parentPort?.postMessage({ id, error: String((error && (error as Error).message) || error) });
  }
});
