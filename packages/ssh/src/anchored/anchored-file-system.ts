/**
 * The SSH workspace's file system with anchored changes and reads (see
 * {@link AnchoredFileSystem}).
 */
import { posix } from "node:path";
import {
  isWithinWorkspacePath,
  WorkspaceError,
  type WorkspaceDirectoryEntry,
  type WorkspaceEntryType,
  type WorkspaceFileSystem,
  type WorkspaceLock,
  type WorkspaceLockOptions,
  type WorkspaceReadRange,
  type WorkspaceStats,
  type WorkspaceWriteOptions,
} from "@agent-tools/core/workspace";
import type { SftpFileSystem } from "../sftp-file-system.js";
import { temporaryName } from "../sftp/sidecar-names.js";
import type { AnchoredHelper } from "./anchored-helper.js";
import { anchoredError } from "./anchored-errors.js";

function checkAbsolute(path: string, operation: string): void {
  if (typeof path !== "string" || !path.startsWith("/") || path.includes("\0")) {
    throw new WorkspaceError(
      "io",
      `${operation}: the path must be an absolute POSIX path without NUL bytes, got ${JSON.stringify(String(path)).slice(0, 200)}.`,
      {
        operation,
      },
    );
  }
}

/** A type the helper's `readdir` names. */
function entryTypeOf(type: string | undefined): WorkspaceEntryType {
  return type === "file" || type === "directory" || type === "symlink" ? type : "other";
}

function checkRange(range: WorkspaceReadRange | undefined): { start: number; end: string } {
  const start = Math.max(0, Math.floor(range?.start ?? 0));
  const end = range?.end === undefined ? "" : String(Math.max(start, Math.floor(range.end)));
  return { start, end };
}

/**
 * The folder the directory of `path` must stay in: `root` for a path below
 * it, the root's own parent for the root itself (`mkdir -p root`), none ("")
 * for a path outside it.
 */
export function boundOf(root: string, path: string): string {
  const normal = posix.resolve("/", path);
  if (normal === root) return posix.dirname(root);
  return isWithinWorkspacePath(root, normal) ? root : "";
}

/**
 * A {@link WorkspaceFileSystem} whose reads (`readFile`, `readStream`) and
 * changes (`writeFileAtomic`, `rename`, `unlink`, `mkdir`, `rmdir`, and the
 * lock files of `lock`) run in the remote anchored helper: each path is
 * walked component by component with the helper's working directory as the
 * anchor, so a folder swapped for a symlink between the caller's
 * containment check and the operation is either followed as it is at that
 * moment and refused (`out_of_bounds`) when it leads out of the workspace
 * root, or noticed mid-walk and walked again. A symlink as the last
 * component is replaced by a write, removed (not followed) by unlink and
 * rename, and followed (inside the root) by a read. Listings (`readdir`)
 * run there too: a folder the model swaps for a symlink to outside between
 * two listings of a walk is never listed. Metadata (`stat`, `lstat`,
 * `realpath`, `readlink`) stays on SFTP: it changes nothing, and the tools
 * check what they decide by again through the anchored calls.
 *
 * A read or write of bytes in hand meeting a dropped connection is run
 * once more on the new connection (the helper restarts with it); `rename`,
 * `unlink`, `mkdir`, `rmdir` are not (they reject with `connection`).
 */
export class AnchoredFileSystem implements WorkspaceFileSystem {
  readonly #sftp: SftpFileSystem;
  readonly #helper: AnchoredHelper;
  readonly #root: string;

  constructor(sftp: SftpFileSystem, helper: AnchoredHelper, root: string) {
    this.#sftp = sftp;
    this.#helper = helper;
    this.#root = root;
  }

  /** The root `path` must stay in: the workspace root for a path below it, none ("") otherwise. */
  bound(path: string): string {
    return boundOf(this.#root, path);
  }

  /** Releases the locks and stops the helper. */
  async close(): Promise<void> {
    await this.#sftp.close();
    this.#helper.close();
  }

  stat(path: string): Promise<WorkspaceStats> {
    return this.#sftp.stat(path);
  }

  lstat(path: string): Promise<WorkspaceStats> {
    return this.#sftp.lstat(path);
  }

  /**
   * The entries of the directory `path` names at this moment, listed by the
   * helper in the directory its walk entered (a symlink on the way, the
   * last component included, is followed inside the root only; a folder
   * swapped for a symlink to outside is refused with `out_of_bounds`), each
   * typed by an `lstat` relative to it.
   */
  async readdir(path: string): Promise<WorkspaceDirectoryEntry[]> {
    checkAbsolute(path, "readdir");
    const entries: WorkspaceDirectoryEntry[] = [];
    for (let attempt = 0; ; attempt += 1) {
      entries.length = 0;
      try {
        for await (const frame of this.#helper.read(["readdir", path, this.bound(path)])) {
          const fields = frame.toString("utf8").split("\0");
          for (let index = 0; index + 1 < fields.length; index += 2) {
            entries.push({ name: fields[index] as string, type: entryTypeOf(fields[index + 1]) });
          }
        }
        return entries;
      } catch (error) {
        const mapped = anchoredError(error, "readdir", path, this.#root);
        // A listing changes nothing: it is asked again once after a dropped connection.
        if (mapped.code !== "connection" || attempt > 0) throw mapped;
      }
    }
  }

  realpath(path: string): Promise<string> {
    return this.#sftp.realpath(path);
  }

  readlink(path: string): Promise<string> {
    return this.#sftp.readlink(path);
  }

  lock(path: string, options?: WorkspaceLockOptions): Promise<WorkspaceLock> {
    return this.#sftp.lock(path, options);
  }

  async readFile(path: string, range?: WorkspaceReadRange): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const chunk of this.readStream(path, range)) parts.push(chunk);
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
  }

  async *readStream(path: string, range?: WorkspaceReadRange): AsyncIterable<Buffer> {
    checkAbsolute(path, "readStream");
    range?.signal?.throwIfAborted();
    const { start, end } = checkRange(range);
    const request = ["read", path, this.bound(path), String(start), end];
    // Run once more after a drop, only before the first chunk: after it the caller has bytes of the file as it was.
    for (let attempt = 0; ; attempt += 1) {
      let yielded = false;
      try {
        for await (const chunk of this.#helper.read(request, range?.signal)) {
          yielded = true;
          yield chunk;
        }
        return;
      } catch (error) {
        if ((error as Error)?.name === "AbortError" || range?.signal?.aborted) throw range?.signal?.reason ?? error;
        const mapped = anchoredError(error, "readFile", path, this.#root);
        if (mapped.code !== "connection" || yielded || attempt > 0) throw mapped;
      }
    }
  }

  async writeFileAtomic(path: string, data: Uint8Array | AsyncIterable<Uint8Array>, options: WorkspaceWriteOptions = {}): Promise<void> {
    checkAbsolute(path, "writeFileAtomic");
    options.signal?.throwIfAborted();
    const normal = posix.resolve("/", path);
    const name = posix.basename(normal);
    if (normal === "/") throw new WorkspaceError("is_a_directory", `writeFileAtomic ${path}: is a directory`, { path, operation: "writeFileAtomic" });
    const mode = options.mode === undefined ? "" : String(options.mode & 0o7777);
    for (let attempt = 0; ; attempt += 1) {
      const request = ["write", path, this.bound(path), mode, options.exclusive ? "1" : "0", temporaryName(name)];
      try {
        await this.#helper.write(request, data, options.signal);
        return;
      } catch (error) {
        if ((error as Error)?.name === "AbortError" || options.signal?.aborted) throw options.signal?.reason ?? error;
        const mapped = anchoredError(error, "writeFileAtomic", path, this.#root);
        // The temporary file is renamed in the helper's last step: bytes in hand are written again after a drop.
        if (mapped.code !== "connection" || !(data instanceof Uint8Array) || attempt > 0) throw mapped;
      }
    }
  }

  rename(from: string, to: string): Promise<void> {
    checkAbsolute(from, "rename");
    checkAbsolute(to, "rename");
    return this.#change("rename", from, ["rename", from, this.bound(from), to, this.bound(to)]);
  }

  unlink(path: string): Promise<void> {
    checkAbsolute(path, "unlink");
    return this.#change("unlink", path, ["unlink", path, this.bound(path)]);
  }

  mkdir(path: string, options: { readonly recursive?: boolean } = {}): Promise<void> {
    checkAbsolute(path, "mkdir");
    if (posix.resolve("/", path) === "/") {
      if (options.recursive) return Promise.resolve();
      return Promise.reject(new WorkspaceError("exists", `mkdir ${path}: already exists`, { path, operation: "mkdir" }));
    }
    return this.#change("mkdir", path, ["mkdir", path, this.bound(path), options.recursive ? "1" : "0", ""]);
  }

  rmdir(path: string): Promise<void> {
    checkAbsolute(path, "rmdir");
    return this.#change("rmdir", path, ["rmdir", path, this.bound(path)]);
  }

  async #change(operation: string, path: string, request: readonly string[]): Promise<void> {
    try {
      await this.#helper.call(request);
    } catch (error) {
      throw anchoredError(error, operation, path, this.#root);
    }
  }
}
