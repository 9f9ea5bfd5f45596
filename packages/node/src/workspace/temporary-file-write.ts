/**
 * A write through a temporary file of the file layer's naming
 * (`.<name>.<pid>.<8 hex>.tmp`, hidden from listings, swept after a crash)
 * in a held directory, for what the file layer's own `writeFileAtomic` does
 * not do: bytes that arrive as a stream (written as they come, never
 * gathered in memory) and exclusive creation (a hard link, which fails when
 * the name is taken, whatever raced in). Aborting at any point before the
 * commit leaves the target as it was and removes the temporary file.
 */
import { constants } from "node:fs";
import { type FileHandle, link, open, rename, unlink } from "node:fs/promises";
import { SdkError } from "@agent-tools/core";
import { type AnchoredDirectory, temporaryName } from "@agent-tools/file-io/internal";
import { throwIfAborted } from "./local-errors.js";

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** Stream chunks are batched up to this size per write system call. */
const BATCH_BYTES = 1024 * 1024;

/** How the temporary file takes the target's place. */
export type TemporaryCommit = "rename" | "link";

/** Bytes for {@link writeThroughTemporary}: whole, or a stream of chunks. */
export type TemporarySource = Uint8Array | AsyncIterable<Uint8Array>;

async function writeBatch(handle: FileHandle, batch: Uint8Array[]): Promise<void> {
  if (batch.length === 0) return;
  await handle.writeFile(batch.length === 1 ? (batch[0] as Uint8Array) : Buffer.concat(batch));
  batch.length = 0;
}

async function writeSource(handle: FileHandle, source: TemporarySource, signal: AbortSignal | undefined): Promise<void> {
  if (source instanceof Uint8Array) {
    await handle.writeFile(source);
    return;
  }
  const batch: Uint8Array[] = [];
  let batched = 0;
  for await (const piece of source) {
    throwIfAborted(signal);
    if (!(piece instanceof Uint8Array)) throw new SdkError("invalid_options", "writeFileAtomic: every chunk of the data must be a Uint8Array.");
    batch.push(piece);
    batched += piece.length;
    if (batched >= BATCH_BYTES) {
      await writeBatch(handle, batch);
      batched = 0;
    }
  }
  await writeBatch(handle, batch);
}

/**
 * Writes `source` to a new temporary file beside `name` in `directory`
 * (permission bits exactly `mode`), then renames it over `name` or links it
 * to `name` (`EEXIST` when taken). The temporary file never outlives the
 * call, but for a crash.
 */
export async function writeThroughTemporary(
  directory: AnchoredDirectory,
  name: string,
  source: TemporarySource,
  options: { readonly mode: number; readonly signal: AbortSignal | undefined; readonly commit: TemporaryCommit },
): Promise<void> {
  const temporary = directory.entry(temporaryName(name));
  const handle = await open(temporary, CREATE_FLAGS, options.mode);
  let renamed = false;
  try {
    try {
      // open's mode is narrowed by the umask; the caller's mode is exact.
      if ((await handle.stat()).mode % 0o10000 !== options.mode) await handle.chmod(options.mode);
      await writeSource(handle, source, options.signal);
    } finally {
      await handle.close();
    }
    throwIfAborted(options.signal);
    if (options.commit === "link") await link(temporary, directory.entry(name));
    else {
      await rename(temporary, directory.entry(name));
      renamed = true;
    }
  } finally {
    if (!renamed) await unlink(temporary).catch(() => undefined);
  }
}
