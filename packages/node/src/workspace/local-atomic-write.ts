/**
 * The atomic write of the local workspace, through the file layer: the
 * parent directory is held by descriptor, the bytes go to a temporary file
 * created beside the target with O_EXCL | O_NOFOLLOW, which is renamed over
 * the target (a symlink there is replaced, never written through). Bytes
 * given whole go through the file layer's `writeFileAtomic`; a stream is
 * written as it arrives, and an exclusive write links the temporary file to
 * the target instead of renaming it, which fails atomically when something
 * is already there (see temporary-file-write.ts).
 */
import { lstat } from "node:fs/promises";
import { SdkError } from "@agent-tools/core";
import { WorkspaceError, type WorkspaceWriteOptions, workspaceErrorFromErrno } from "@agent-tools/core/workspace";
import { type AnchoredDirectory, writeFileAtomic } from "@agent-tools/file-io/internal";
import { anchorParent } from "./anchored-parent.js";
import { throwIfAborted } from "./local-errors.js";
import { writeThroughTemporary } from "./temporary-file-write.js";

const OPERATION = "writeFileAtomic";
/** Permission bits of a new file before the umask (the port's default). */
const DEFAULT_MODE = 0o644;

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array> {
  return typeof value === "object" && value !== null && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function";
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

/**
 * Replaces (or creates) the file at the absolute `target` atomically. The
 * new file keeps the permission bits of the regular file it replaces, else
 * gets `options.mode` or 0o644 narrowed by the umask; a path below `root`
 * whose directory resolves outside it is refused (`out_of_bounds`).
 * Aborting before the commit leaves everything as it was. Aborting before the
 * temporary file is written leaves everything as it was.
 */
export async function writeLocalFileAtomic(
  target: string,
  data: Uint8Array | AsyncIterable<Uint8Array>,
  options: WorkspaceWriteOptions,
  context: { readonly root: string; readonly umask: number },
): Promise<void> {
  checkMode(options.mode);
  if (!(data instanceof Uint8Array) && !isAsyncIterable(data)) {
    throw new SdkError("invalid_options", `${OPERATION}: data must be a Uint8Array or an AsyncIterable of Uint8Array.`);
  }
  throwIfAborted(options.signal);
  const { directory, name } = await anchorParent(target, OPERATION, context.root);
  try {
    const before = await existing(directory, name);
    if (before?.isDirectory()) throw new WorkspaceError("is_a_directory", `${OPERATION} ${target}: it is a directory.`, { path: target, operation: OPERATION });
    if (before && options.exclusive) throw new WorkspaceError("exists", `${OPERATION} ${target}: it already exists.`, { path: target, operation: OPERATION });
    const mode = options.mode ?? (before?.isFile() ? before.mode % 0o10000 : DEFAULT_MODE & ~context.umask);
    throwIfAborted(options.signal);
    if (data instanceof Uint8Array && !options.exclusive) await writeFileAtomic(directory, name, data, mode);
    else await writeThroughTemporary(directory, name, data, { mode, signal: options.signal, commit: options.exclusive ? "link" : "rename" });
  } catch (error) {
    if (error instanceof SdkError || (error as { name?: unknown } | null)?.name === "AbortError") throw error;
    throw workspaceErrorFromErrno(error, OPERATION, target);
  } finally {
    directory.close();
  }
}
