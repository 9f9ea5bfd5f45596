/**
 * The off-thread hashing worker, as a self-contained JavaScript source run
 * with `new Worker(source, { eval: true })`. It embeds the same FNV-1a 64
 * WebAssembly module as content-hash.ts (src/wasm/fnv-hash.wat; the
 * hash-worker tests compare the two), so it needs no file on disk.
 *
 * Protocol: each message `{ id, pieces }` (Uint8Arrays, hashed in order as
 * one content) is answered with `{ id, released: true }` once the worker has
 * copied the pieces (the sender may then reuse their memory), then with
 * `{ id, hash }` (16 hex characters) or `{ id, error }`.
 */
import { FNV_HASH_WASM } from "../wasm/fnv-hash.wasm.js";

/** The worker program. */
export const HASH_WORKER_SOURCE = `"use strict";
const { parentPort } = require("node:worker_threads");
// Hashing is not urgent: on Linux this thread (only) gives way to the main
// thread, libuv's I/O threads and other processes when the CPU is contended.
try {
  const tid = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
  if (tid > 0) require("node:os").setPriority(tid, 10);
} catch {}
const DATA_OFFSET = 8;
const CHUNK = 4 * 1024 * 1024;
const { mem, fnv } = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array([${Array.from(FNV_HASH_WASM).join(",")}]))).exports;
const OFFSET_BASIS = BigInt.asIntN(64, 0xcbf29ce484222325n);
const ensure = (bytes) => {
  const pages = Math.ceil((bytes + DATA_OFFSET) / 65536) - mem.buffer.byteLength / 65536;
  if (pages > 0) mem.grow(pages);
};
parentPort.on("message", ({ id, pieces }) => {
  try {
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
      parentPort.postMessage({ id, released: true });
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
    parentPort.postMessage({ id, hash: BigInt.asUintN(64, state).toString(16).padStart(16, "0") });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;
