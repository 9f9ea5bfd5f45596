import type { PendingHash } from "../fast-io/hash-worker.js";

/**
 * Per-registry memory of what the model has read and written: the latest
 * version seen of each file, the latest full-text snapshot (what Write and
 * Edit check for staleness) and the versions per read range (what Read's
 * "unchanged" stub relies on).
 */

/** A version of a file on disk. */
export interface FileVersion {
  /** Modification time in milliseconds (sub-millisecond precision kept). */
  readonly mtimeMs: number;
  /** FNV-1a 64 of the raw bytes; "" when the file was too big to hash, or while the hash is being computed off the main thread. */
  readonly contentHash: string;
  /** Size in bytes. */
  readonly size: number;
  /**
   * Change time in milliseconds, when known. User space can set mtime back
   * but not ctime, so an unchanged mtime + size is trusted only when ctime
   * and inode are unchanged too.
   */
  readonly ctimeMs?: number;
  /** Inode number, when known (an atomic replacement changes it). */
  readonly ino?: number;
}

/** The identity fields of a `Stats` as a {@link FileVersion} records them. */
export function statIdentity(stats: {
  mtimeMs: number;
  ctimeMs?: number;
  ino?: number;
  size: number;
}): Pick<FileVersion, "mtimeMs" | "ctimeMs" | "ino" | "size"> {
  return { mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino, size: stats.size };
}

/** A full-text snapshot: the model saw every line of this version. */
export interface FullTextSnapshot extends FileVersion {
  readonly totalLines: number;
}

/** What was last seen of a file. */
export interface LatestRead extends FileVersion {
  readonly kind: "text" | "image" | "pdf" | "notebook" | "archive" | "office" | "mutation";
  readonly rangeKey: string;
  /** Total lines, for text reads and mutations. */
  readonly totalLines?: number;
  /** FNV-1a 64 of the bytes of a text window's lines as read (see `TextWindow.windowHash`). */
  readonly windowHash?: string;
}

/** What is kept of a read per range key: the version, and for a text window the hash of its lines' bytes. */
export type RangeRead = FileVersion & { readonly windowHash?: string };

interface Bucket {
  latest?: LatestRead;
  latestFullText?: FullTextSnapshot;
  byRangeKey: Map<string, RangeRead>;
  /** The hash of the version the tools last wrote or read, while it is computed off the main thread. */
  pendingHash?: { identity: FileVersion; hash: PendingHash };
}

/** Identity of two versions (mtime, size and hash). */
export function sameVersion(a: FileVersion, b: FileVersion): boolean {
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.contentHash === b.contentHash;
}

/** The same stat identity: mtime, size, ctime and inode all equal (an unknown ctime or inode equals only an unknown one). */
function sameIdentity(a: FileVersion, b: FileVersion): boolean {
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/** The same stat identity, with a ctime and an inode known on both sides: what Write and Edit trust without hashing. */
function trustedSameIdentity(a: FileVersion, b: FileVersion): boolean {
  return a.ctimeMs !== undefined && a.ino !== undefined && sameIdentity(a, b);
}

/**
 * The file tools' state of one registry; buckets are keyed by the canonical
 * absolute path (atomic replacements change the inode, so `dev:ino` would
 * lose track of a file the tools themselves rewrote).
 *
 * @example
 * const state = new FileToolState();
 * state.recordRead("/repo/a.ts", { kind: "text", rangeKey: "text:1:10:10", mtimeMs, contentHash, size, totalLines: 10 }, true);
 */
export class FileToolState {
  private readonly buckets = new Map<string, Bucket>();

  private bucket(key: string): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { byRangeKey: new Map() };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }

  /** Records a read of `rangeKey`; `fullText` when every line of a text file was shown. */
  recordRead(key: string, read: LatestRead, fullText = false): void {
    const bucket = this.bucket(key);
    bucket.latest = read;
    const { mtimeMs, ctimeMs, ino, contentHash, size, windowHash } = read;
    bucket.byRangeKey.set(read.rangeKey, { mtimeMs, ctimeMs, ino, contentHash, size, windowHash });
    if (fullText && read.totalLines !== undefined) {
      bucket.latestFullText = {
        mtimeMs: read.mtimeMs,
        ctimeMs: read.ctimeMs,
        ino: read.ino,
        contentHash: read.contentHash,
        size: read.size,
        totalLines: read.totalLines,
      };
    }
  }

  /**
   * Records a read like {@link FileToolState.recordRead} and says whether the
   * model had already seen this exact range at this very version, with the
   * same bytes in the window when it has a `windowHash` (Read then answers
   * with the "unchanged" stub). A version without a hash never
   * counts. With `pendingHash` the read's `contentHash` is "" until that
   * hash arrives (see {@link FileToolState.recordTextMutation}).
   */
  recordRangeRead(key: string, read: LatestRead, fullText = false, pendingHash?: PendingHash): boolean {
    const previous = this.getExactRead(key, read.rangeKey);
    // The window's own bytes must match too: a write through a shared memory mapping moves no stat field.
    const seen = previous !== undefined && read.contentHash !== "" && sameVersion(previous, read) && previous.windowHash === read.windowHash;
    this.recordRead(key, read, fullText);
    if (pendingHash) this.awaitHash(key, read, pendingHash);
    return seen;
  }

  /**
   * The hash recorded of a version with exactly this stat identity (mtime,
   * size, ctime and inode, the last two known), if any: a window read only
   * up to its end takes it instead of hashing the file again. Only a hash
   * recorded for the same identity is given, never one computed later from
   * other bytes.
   */
  knownHash(key: string, identity: FileVersion): string | undefined {
    const bucket = this.buckets.get(key);
    if (!bucket) return undefined;
    const recorded = [bucket.latest, bucket.latestFullText, ...bucket.byRangeKey.values()];
    return recorded.find((version) => version && version.contentHash !== "" && trustedSameIdentity(version, identity))?.contentHash;
  }

  /**
   * Records the version the tools themselves just wrote: a full snapshot, no
   * range reads kept. With `pendingHash` the version's `contentHash` is ""
   * until the hash arrives; it is then filled in if this is still the
   * recorded version.
   */
  recordTextMutation(key: string, version: FullTextSnapshot, pendingHash?: PendingHash): void {
    const bucket = this.bucket(key);
    bucket.byRangeKey.clear();
    bucket.latest = { kind: "mutation", rangeKey: "mutation", ...version };
    bucket.latestFullText = version;
    bucket.pendingHash = undefined;
    if (pendingHash) this.awaitHash(key, version, pendingHash);
  }

  /**
   * Remembers that `version`'s hash is being computed; when it arrives, it
   * fills in every record of that very identity still without a hash ("" =
   * unknown fills nothing).
   */
  private awaitHash(key: string, version: FileVersion, pendingHash: PendingHash): void {
    const identity: FileVersion = { mtimeMs: version.mtimeMs, ctimeMs: version.ctimeMs, ino: version.ino, size: version.size, contentHash: "" };
    this.bucket(key).pendingHash = { identity, hash: pendingHash };
    const settle = (hash: string) => {
      const current = this.buckets.get(key);
      if (current?.pendingHash?.hash !== pendingHash) return;
      current.pendingHash = undefined;
      if (hash === "") return;
      const fill = <T extends FileVersion>(recorded: T | undefined): T | undefined =>
        recorded && recorded.contentHash === "" && sameIdentity(recorded, identity) ? { ...recorded, contentHash: hash } : recorded;
      current.latest = fill(current.latest);
      current.latestFullText = fill(current.latestFullText);
      for (const [rangeKey, recorded] of current.byRangeKey) current.byRangeKey.set(rangeKey, fill(recorded)!);
    };
    pendingHash.promise.then(settle, () => settle(""));
  }

  /**
   * The hash being computed for `version` of a file (the tools wrote or
   * read it and its hash is not known yet), if any.
   */
  getPendingHash(key: string, version: FileVersion): PendingHash | undefined {
    const pending = this.buckets.get(key)?.pendingHash;
    if (!pending || version.contentHash !== "" || !sameIdentity(pending.identity, version)) return undefined;
    return pending.hash;
  }

  /** The latest thing seen of a file. */
  getLatest(key: string): LatestRead | undefined {
    return this.buckets.get(key)?.latest;
  }

  /** The latest full-text snapshot of a file. */
  getLatestFullText(key: string): FullTextSnapshot | undefined {
    return this.buckets.get(key)?.latestFullText;
  }

  /** The version recorded for an exact range key, if any. */
  getExactRead(key: string, rangeKey: string): RangeRead | undefined {
    return this.buckets.get(key)?.byRangeKey.get(rangeKey);
  }

  /** Forgets a file (after Delete, or when an auto-read is rolled back). */
  clear(key: string): void {
    this.buckets.delete(key);
  }

  /** Forgets every file under a directory (after a recursive Delete). */
  clearUnder(directory: string): void {
    const prefix = directory.endsWith("/") ? directory : `${directory}/`;
    for (const key of [...this.buckets.keys()]) if (key === directory || key.startsWith(prefix)) this.buckets.delete(key);
  }
}
