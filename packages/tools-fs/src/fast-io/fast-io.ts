/**
 * The file tools' speed machinery, owned by one bundle: the off-thread
 * hashing worker, the pooled whole-file buffers and the WebAssembly
 * instances (FNV-1a 64, line-ending counter). Nothing here is process-global
 * except the compiled WebAssembly modules, which are immutable.
 *
 * `createFsToolBundle` makes one per bundle and closes it from the bundle's
 * `close` hook, so `registry.close()` stops the worker thread, clears the
 * timers and drops the buffers. A host that never closes still exits: the
 * worker and the timers are unref'd.
 */
import type { FileHandle } from "node:fs/promises";
import { ContentHasher } from "../shared/content-hash.js";
import { type LineEndingCounts, countLineEndings } from "../shared/line-ending-count.js";
import { type FileIdentity, HashWorker, type HashPrefix, type PendingHash } from "./hash-worker.js";
import { type PooledRead, ReadBufferPool, type ReadProgress } from "./read-buffer-pool.js";
import { type EolKernel, type FnvKernel, createEolKernel, createFnvKernel } from "./wasm-kernels.js";

/** What a {@link FastIo} holds right now (for tests and diagnostics). */
export interface FastIoUsage {
  /** Whether the hashing worker thread is running. */
  readonly hashWorkerRunning: boolean;
  /** Pooled buffers kept. */
  readonly buffers: number;
  /** Pooled buffers in use. */
  readonly busyBuffers: number;
}

/** One bundle's fast I/O: see the module comment. */
export interface FastIo {
  /** Hashes `pieces` (one content, in order) on the worker thread; `transfer` moves an exclusively owned ArrayBuffer there instead of copying. */
  hashOffThread(pieces: readonly Uint8Array[], transfer?: ArrayBuffer): PendingHash;
  /** Hashes the open file `fd` on the worker thread; "" unless it is still `expected` afterwards (see `HashWorker.hashFile`). Keep `fd` open until `released`. `prefix`: the caller hashed the first bytes. Undefined while too many files are being hashed. */
  hashFileOffThread(fd: number, expected: FileIdentity, prefix?: HashPrefix): PendingHash | undefined;
  /** Reads a whole file (current size `size`), into pooled memory when it is large (then in chunks reported to `onChunk`, when given). */
  readWholeFile(handle: FileHandle, size: number, onChunk?: ReadProgress): Promise<PooledRead>;
  /** `text` as UTF-8, into pooled memory when it is large. */
  encodeText(text: string): Promise<PooledRead>;
  /** A fresh FNV-1a 64 hasher on this bundle's WebAssembly instance. */
  createHasher(): ContentHasher;
  /** FNV-1a 64 of `bytes` (16 hex characters) on this bundle's WebAssembly instance. */
  contentHash(bytes: Uint8Array): string;
  /** LF and CRLF counts of `bytes` on this bundle's WebAssembly instance. */
  countLineEndings(bytes: Uint8Array): LineEndingCounts;
  /** What is held right now. */
  usage(): FastIoUsage;
  /** Stops the worker, clears the timers, drops the buffers and instances; later calls still work, without them. */
  close(): Promise<void>;
}

/**
 * Creates one bundle's fast I/O; nothing starts until first use.
 *
 * @example
 * const fastIo = createFastIo();
 * const read = await fastIo.readWholeFile(handle, size);
 * read.release();
 * await fastIo.close();
 */
export function createFastIo(): FastIo {
  const hashes = new HashWorker();
  const pool = new ReadBufferPool();
  let fnv: FnvKernel | null | undefined;
  let eol: EolKernel | null | undefined;
  return {
    hashOffThread: (pieces, transfer) => hashes.hash(pieces, transfer),
    hashFileOffThread: (fd, expected, prefix) => hashes.hashFile(fd, expected, prefix),
    readWholeFile: (handle, size, onChunk) => pool.readWholeFile(handle, size, onChunk),
    encodeText: (text) => pool.encodeText(text),
    createHasher: () => new ContentHasher((fnv ??= createFnvKernel())),
    contentHash: (bytes) => new ContentHasher((fnv ??= createFnvKernel())).update(bytes).digest(),
    countLineEndings: (bytes) => countLineEndings(bytes, (eol ??= createEolKernel())),
    usage: () => {
      const { buffers, busy } = pool.usage();
      return { hashWorkerRunning: hashes.running, buffers, busyBuffers: busy };
    },
    close: async () => {
      pool.close();
      fnv = undefined;
      eol = undefined;
      await hashes.close();
    },
  };
}
