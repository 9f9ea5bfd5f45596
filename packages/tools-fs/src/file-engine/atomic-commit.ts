import { fstatSync } from "node:fs";
import { type AnchoredDirectory, type PreparedTemporary, writeFileAtomic } from "@agent-tools/file-io/internal";
import type { FastIo } from "../fast-io/fast-io.js";
import { DEFAULT_INLINE_HASH_LIMIT_BYTES, type PendingHash } from "../fast-io/hash-worker.js";
import type { FullTextSnapshot } from "../shared/file-state.js";

/** How Edit and Write hash what they write. */
export interface MutationHashOptions {
  /**
   * New content up to this many bytes is hashed (FNV-1a 64) on the main
   * thread while the write is in flight; larger content is hashed off the
   * main thread after the write, and its version is recorded with
   * `contentHash: ""` until the hash arrives. Default 1 MiB; `Infinity`
   * always hashes inline.
   */
  inlineHashLimitBytes?: number;
}

/** The version a mutation wrote, and its hash while it is still being computed. */
export interface WrittenVersion {
  version: FullTextSnapshot;
  pendingHash?: PendingHash;
}

/** What {@link commitAtomically} writes, and where. */
export interface AtomicCommit {
  /** The held directory. */
  directory: AnchoredDirectory;
  /** The entry's name inside `directory`. */
  name: string;
  /** The new content, in order. */
  pieces: readonly Buffer[];
  /** Permission bits to keep; undefined for a new file. */
  mode: number | undefined;
  /** The bundle's hashing worker and WebAssembly instances. */
  fastIo: FastIo;
  /** How the new content is hashed. */
  hashing: MutationHashOptions;
  /**
   * The new content's line count when the hash is deferred (inline hashing
   * counts lines for free); it runs while the write is in flight.
   */
  countLines: () => number;
  /**
   * The ArrayBuffer under the pieces when the caller owns it and will not
   * touch it again, so a deferred hash can take it without a copy.
   */
  transfer?: ArrayBuffer;
  /** The temporary file, when the caller created it ahead (see `prepareTemporary`). */
  prepared?: PreparedTemporary;
}

/**
 * Writes the new content atomically over the entry of a held directory and
 * works out the new version: mtime, ctime, inode, size, hash and line count.
 */
export async function commitAtomically(commit: AtomicCommit): Promise<WrittenVersion> {
  const { directory, name, pieces, mode, fastIo, countLines, transfer, prepared } = commit;
  const size = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const inline = size <= (commit.hashing.inlineHashLimitBytes ?? DEFAULT_INLINE_HASH_LIMIT_BYTES);
  const data = pieces.length === 1 ? pieces[0]! : pieces;
  let identity = { mtimeMs: 0, ctimeMs: 0, ino: 0 };
  const { contentHash, totalLines } = await writeFileAtomic(
    directory,
    name,
    data,
    mode,
    () => {
      if (!inline) return { contentHash: "", totalLines: countLines() };
      const hasher = fastIo.createHasher();
      for (const piece of pieces) hasher.update(piece);
      return { contentHash: hasher.digest(), totalLines: hasher.lineCount() };
    },
    // The written file's own times and inode, after the rename (which sets its ctime); an fstat of a local descriptor does not block.
    (fd) => {
      const stats = fstatSync(fd);
      identity = { mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
    },
    prepared,
  );
  const version: FullTextSnapshot = { ...identity, size, contentHash, totalLines };
  if (inline) return { version };
  return { version, pendingHash: fastIo.hashOffThread(pieces, transfer) };
}
