import { fstatSync } from "node:fs";
import { writeFileAtomic } from "./atomic-write.js";
import { ContentHasher } from "./content-hash.js";
import { DEFAULT_INLINE_HASH_LIMIT_BYTES, type PendingHash, hashOffThread } from "./deferred-hash.js";
import type { FullTextSnapshot } from "./file-state.js";

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

/**
 * Writes `pieces` (the new content, in order) atomically over `target` and
 * works out the new version: mtime, size, hash and line count.
 *
 * @param countLines the new content's line count when the hash is deferred
 *   (inline hashing counts lines for free); it runs while the write is in flight
 * @param transfer the ArrayBuffer under the pieces when the caller owns it and
 *   will not touch it again, so a deferred hash can take it without a copy
 */
export async function writeMutation(
  target: string,
  pieces: readonly Buffer[],
  mode: number | undefined,
  options: MutationHashOptions,
  countLines: () => number,
  transfer?: ArrayBuffer,
): Promise<WrittenVersion> {
  const size = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const inline = size <= (options.inlineHashLimitBytes ?? DEFAULT_INLINE_HASH_LIMIT_BYTES);
  const data = pieces.length === 1 ? pieces[0]! : pieces;
  let mtimeMs = 0;
  const { contentHash, totalLines } = await writeFileAtomic(
    target,
    data,
    mode,
    () => {
      if (!inline) return { contentHash: "", totalLines: countLines() };
      const hasher = new ContentHasher();
      for (const piece of pieces) hasher.update(piece);
      return { contentHash: hasher.digest(), totalLines: hasher.lineCount() };
    },
    // The written file's own mtime (an fstat of a local descriptor does not block; the rename keeps it).
    (fd) => (mtimeMs = fstatSync(fd).mtimeMs),
  );
  const version: FullTextSnapshot = { mtimeMs, size, contentHash, totalLines };
  if (inline) return { version };
  return { version, pendingHash: hashOffThread(pieces, transfer) };
}
