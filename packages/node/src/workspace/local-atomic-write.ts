/**
 * The atomic write of the local workspace, through the file layer: the
 * parent directory is held by descriptor, the bytes go to a temporary file
 * created beside the target with O_EXCL | O_NOFOLLOW, which is renamed over
 * the target (a symlink there is replaced, never written through). An
 * exclusive write links the temporary file to the target instead, which
 * fails atomically when something is already there.
 */
import { constants } from "node:fs";
import { link, lstat, open, unlink } from "node:fs/promises";
import { SdkError } from "@agent-tools/core";
import { WorkspaceError, type WorkspaceWriteOptions, workspaceErrorFromErrno } from "@agent-tools/core/workspace";
import { type AnchoredDirectory, temporaryName, writeFileAtomic } from "@agent-tools/file-io";
import { anchorParent } from "./anchored-parent.js";
import { throwIfAborted } from "./local-errors.js";

const OPERATION = "writeFileAtomic";
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** Permission bits of a new file before the umask (the port's default). */
const DEFAULT_MODE = 0o644;

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof value === "object" && value !== null && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function";
}

/** A Buffer over the same bytes (no copy). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The bytes to write as pieces (a stream is gathered first: the temporary file is created once its end is known). */
async function gather(data: Uint8Array | AsyncIterable<Uint8Array>, signal: AbortSignal | undefined): Promise<Buffer[]> {
  if (data instanceof Uint8Array) return [asBuffer(data)];
  if (!isAsyncIterable(data)) throw new SdkError("invalid_options", `${OPERATION}: data must be a Uint8Array or an AsyncIterable of Uint8Array.`);
  const pieces: Buffer[] = [];
  for await (const piece of data) {
    throwIfAborted(signal);
    if (!(piece instanceof Uint8Array)) throw new SdkError("invalid_options", `${OPERATION}: every chunk of the data must be a Uint8Array.`);
    if (piece.length > 0) pieces.push(asBuffer(piece));
  }
  return pieces;
}

function checkMode(mode: unknown): void {
  if (mode !== undefined && (!Number.isInteger(mode) || (mode as number) < 0 || (mode as number) > 0o7777)) {
    throw new SdkError("invalid_options", `${OPERATION}: mode must be an integer of permission bits from 0 to 0o7777 (got ${String(mode)}).`);
  }
}

/** The entry's lstat, or null when nothing is there. */
async function existing(directory: AnchoredDirectory, name: string) {
  try {
    return await lstat(directory.entry(name));
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return null;
    throw error;
  }
}

/** Writes a temporary file and hard-links it to `name`: EEXIST when the name is taken, whatever raced in. */
async function linkExclusive(directory: AnchoredDirectory, name: string, pieces: readonly Buffer[], mode: number): Promise<void> {
  const temporary = directory.entry(temporaryName(name));
  const handle = await open(temporary, CREATE_FLAGS, mode);
  try {
    try {
      if ((await handle.stat()).mode % 0o10000 !== mode) await handle.chmod(mode);
      for (const piece of pieces) await handle.writeFile(piece);
    } finally {
      await handle.close();
    }
    await link(temporary, directory.entry(name));
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

/**
 * Replaces (or creates) the file at the absolute `target` atomically. The
 * new file keeps the permission bits of the regular file it replaces, else
 * gets `options.mode` or 0o644 narrowed by the umask; a path below `root`
 * whose directory resolves outside it is refused (`out_of_bounds`). Aborting before the
 * temporary file is written leaves everything as it was.
 */
export async function writeLocalFileAtomic(
  target: string,
  data: Uint8Array | AsyncIterable<Uint8Array>,
  options: WorkspaceWriteOptions,
  context: { readonly root: string; readonly umask: number },
): Promise<void> {
  checkMode(options.mode);
  throwIfAborted(options.signal);
  const pieces = await gather(data, options.signal);
  const { directory, name } = await anchorParent(target, OPERATION, context.root);
  try {
    const before = await existing(directory, name);
    if (before?.isDirectory()) throw new WorkspaceError("is_a_directory", `${OPERATION} ${target}: it is a directory.`, { path: target, operation: OPERATION });
    if (before && options.exclusive) throw new WorkspaceError("exists", `${OPERATION} ${target}: it already exists.`, { path: target, operation: OPERATION });
    const mode = options.mode ?? (before?.isFile() ? before.mode % 0o10000 : DEFAULT_MODE & ~context.umask);
    throwIfAborted(options.signal);
    if (options.exclusive) await linkExclusive(directory, name, pieces, mode);
    else await writeFileAtomic(directory, name, pieces.length > 0 ? pieces : [Buffer.alloc(0)], mode);
  } catch (error) {
    if (error instanceof SdkError || (error as { name?: unknown } | null)?.name === "AbortError") throw error;
    throw workspaceErrorFromErrno(error, OPERATION, target);
  } finally {
    directory.close();
  }
}
