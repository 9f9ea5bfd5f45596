/**
 * A directory tree whose every read and write stays inside it, for the
 * writes the SDK does on a model's behalf outside the file tools: applying a
 * subagent's changes, rewinding a checkpoint, installing a skill.
 *
 * Paths are relative to the root (POSIX separators; no `..`, no absolute
 * paths). Every directory on the way is opened with `O_NOFOLLOW` through the
 * directory held just before it, starting from the root held open since
 * {@link openContainedTree}: a component that is (or becomes, racing the
 * walk) a symlink is refused with `out_of_bounds`, never followed, so a tree
 * a model or a command rearranged cannot redirect a write outside the root.
 * The last component is never followed either: `writeFile` and `symlink`
 * replace a symlink there by renaming over it, `readFile` refuses one,
 * `remove` removes the link itself.
 *
 * Where `/proc/self/fd` is missing (macOS), each component is checked with
 * `lstat` before use; the residual race is the one docs/tools-fs.md states
 * for the file tools.
 */
import { type Dirent, type Stats, closeSync, constants, fchmodSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, realpathSync } from "node:fs";
import { type FileHandle, open, readdir, readlink, rename, rmdir, symlink, unlink } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { type AnchoredDirectory, anchorChild, anchorDirectory } from "./anchored-directory.js";
import { temporaryName } from "./sidecar-names.js";

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
// O_NONBLOCK: a file swapped for a FIFO after a check fails the fstat test instead of blocking the open.
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Options of {@link ContainedTree.writeFile} and {@link ContainedTree.symlink}. */
export interface ContainedWriteOptions {
  /** Permission bits of the new file (set exactly, whatever the umask); default 0o666 narrowed by the umask. */
  mode?: number;
  /** Create missing parent directories (each through its held parent); default true. */
  createParents?: boolean;
  /** fsync the file before the rename and the directory after it, so a crash keeps the old or the new state; default false. */
  durable?: boolean;
}

/** Options of {@link ContainedTree.mkdir}. */
export interface ContainedMkdirOptions {
  /** Permission bits of the new directory (set exactly). */
  mode?: number;
  /** Create missing parents and accept an existing directory; default false. */
  recursive?: boolean;
}

/** A root directory held open; every operation takes a path relative to it. */
export interface ContainedTree {
  /** The root's canonical path. */
  readonly root: string;
  /** `lstat` of the entry (a symlink is described, not followed); undefined when it or a parent is missing. */
  lstat(relativePath: string): Promise<Stats | undefined>;
  /** The bytes of a regular file; a symlink, directory or special file is refused. */
  readFile(relativePath: string): Promise<Buffer>;
  /** The target of a symlink, as stored. */
  readlink(relativePath: string): Promise<string>;
  /** The entries of a directory (`""` or `"."` is the root itself), with their kinds; a symlink is listed, not followed. */
  readdir(relativePath: string): Promise<Dirent[]>;
  /** Replaces the entry atomically with a regular file holding `data` (temporary file + rename). */
  writeFile(relativePath: string, data: Uint8Array, options?: ContainedWriteOptions): Promise<void>;
  /** Replaces the entry atomically with a symlink to `target` (stored verbatim; see {@link symlinkStaysInside}). */
  symlink(relativePath: string, target: string, options?: ContainedWriteOptions): Promise<void>;
  /** Creates a directory. */
  mkdir(relativePath: string, options?: ContainedMkdirOptions): Promise<void>;
  /** Sets the permission bits of a file or directory (never through a symlink). */
  chmod(relativePath: string, mode: number): Promise<void>;
  /** Removes a file, a symlink (the link itself) or an empty directory; false when it was missing. `durable` fsyncs the directory after. */
  remove(relativePath: string, options?: { durable?: boolean }): Promise<boolean>;
  /** Renames an entry inside the tree (replacing a file or symlink at `to`). */
  rename(fromPath: string, toPath: string): Promise<void>;
  /** Releases the root's descriptor (idempotent). */
  close(): void;
}

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

function escapes(root: string, relativePath: string, reason: string): ToolError {
  return new ToolError("out_of_bounds", `${relativePath} cannot be used inside ${root}: ${reason}. Nothing was written outside it.`, {
    details: { root, path: relativePath },
    recoverable: false,
  });
}

/**
 * The components of a path relative to the root; refuses absolute paths,
 * `..`, NUL bytes and empty paths. `.` and empty segments are dropped.
 */
export function splitContainedPath(root: string, relativePath: string): string[] {
  if (typeof relativePath !== "string" || relativePath.includes("\0")) throw escapes(root, String(relativePath), "the path is not a valid name");
  if (path.posix.isAbsolute(relativePath) || path.win32.isAbsolute(relativePath)) throw escapes(root, relativePath, "absolute paths are not allowed");
  const parts = relativePath.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.includes("..")) throw escapes(root, relativePath, "`..` is not allowed");
  if (parts.length === 0) throw escapes(root, relativePath, "the path names the root itself");
  return parts;
}

/**
 * True when a symlink at `linkPath` (relative to the root) whose target is
 * `target` resolves, lexically, to a path inside the root: a relative target
 * that does not climb above the root. Absolute targets are outside.
 */
export function symlinkStaysInside(linkPath: string, target: string): boolean {
  if (target === "" || target.includes("\0") || path.posix.isAbsolute(target)) return false;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(linkPath), target));
  return resolved !== ".." && !resolved.startsWith("../") && !path.posix.isAbsolute(resolved);
}

/**
 * Opens `root` (a directory; symlinks in the root path itself are resolved
 * once, here) and returns the tree held there. Close it when done.
 *
 * @example
 * const tree = openContainedTree("/repo");
 * try {
 *   await tree.writeFile("src/a.ts", Buffer.from("export {};\n"), { mode: 0o644 });
 * } finally {
 *   tree.close();
 * }
 */
export function openContainedTree(root: string): ContainedTree {
  const canonicalRoot = realpathSync(root);
  const rootDirectory = anchorDirectory(canonicalRoot);

  /** Opens the directory `parts` names, creating missing ones when asked; the caller closes it. */
  function openDirectory(relativePath: string, parts: readonly string[], create: boolean, mode?: number): AnchoredDirectory | undefined {
    let current = reopenRoot();
    for (const name of parts) {
      let next: AnchoredDirectory;
      try {
        next = openChild(current, name, relativePath);
      } catch (error) {
        if (codeOf(error) !== "ENOENT" || !create) {
          current.close();
          if (codeOf(error) === "ENOENT") return undefined;
          throw error;
        }
        try {
          mkdirSync(current.entry(name), mode);
          if (mode !== undefined) fchmodDirectory(current, name, mode, relativePath);
        } catch (made) {
          if (codeOf(made) !== "EEXIST") {
            current.close();
            throw made;
          }
        }
        try {
          next = openChild(current, name, relativePath);
        } catch (reopened) {
          current.close();
          throw reopened;
        }
      }
      current.close();
      current = next;
    }
    return current;
  }

  function reopenRoot(): AnchoredDirectory {
    return rootDirectory.anchored ? anchorChild(rootDirectory, ".") : anchorDirectory(canonicalRoot);
  }

  /** Opens a child directory without following a symlink: a symlink there is refused (`out_of_bounds`), a file fails with ENOTDIR. */
  function openChild(parent: AnchoredDirectory, name: string, relativePath: string): AnchoredDirectory {
    if (!parent.anchored) {
      const info = lstatOrUndefined(parent.entry(name));
      if (!info) throw Object.assign(new Error(`${name} is missing`), { code: "ENOENT" });
      if (info.isSymbolicLink()) throw escapes(canonicalRoot, relativePath, `${name} on the way is a symlink`);
      if (!info.isDirectory()) throw Object.assign(new Error(`${name} on the way is not a directory`), { code: "ENOTDIR" });
      return anchorChild(parent, name);
    }
    try {
      return anchorChild(parent, name);
    } catch (error) {
      const code = codeOf(error);
      // O_DIRECTORY | O_NOFOLLOW on a symlink fails with ENOTDIR on Linux (ELOOP elsewhere): tell a symlink from a file.
      if (code === "ELOOP" || (code === "ENOTDIR" && lstatOrUndefined(parent.entry(name))?.isSymbolicLink())) {
        throw escapes(canonicalRoot, relativePath, `${name} on the way is a symlink`);
      }
      throw error;
    }
  }

  function fchmodDirectory(parent: AnchoredDirectory, name: string, mode: number, relativePath: string): void {
    const child = openChild(parent, name, relativePath);
    try {
      const fd = openSync(child.self(), constants.O_RDONLY | constants.O_DIRECTORY);
      try {
        fchmodSync(fd, mode);
      } finally {
        closeSync(fd);
      }
    } finally {
      child.close();
    }
  }

  /** Runs `use` with the parent directory of `relativePath` held and the leaf's name. */
  async function withParent<T>(
    relativePath: string,
    create: boolean,
    use: (parent: AnchoredDirectory, name: string) => Promise<T>,
    missing: () => T,
  ): Promise<T> {
    const parts = splitContainedPath(canonicalRoot, relativePath);
    const name = parts[parts.length - 1] as string;
    const parent = openDirectory(relativePath, parts.slice(0, -1), create);
    if (!parent) return missing();
    try {
      return await use(parent, name);
    } finally {
      parent.close();
    }
  }

  function missingError(relativePath: string): never {
    throw Object.assign(new Error(`ENOENT: ${relativePath} does not exist in ${canonicalRoot}`), { code: "ENOENT", path: relativePath });
  }

  async function replaceWith(
    parent: AnchoredDirectory,
    name: string,
    options: ContainedWriteOptions | undefined,
    create: (temporary: string) => Promise<void>,
  ): Promise<void> {
    const temporary = parent.entry(temporaryName(name));
    let renamed = false;
    try {
      await create(temporary);
      await rename(temporary, parent.entry(name));
      renamed = true;
      if (options?.durable) syncDirectory(parent);
    } finally {
      if (!renamed) await unlink(temporary).catch(() => undefined);
    }
  }

  const tree: ContainedTree = {
    root: canonicalRoot,
    async lstat(relativePath) {
      return withParent(
        relativePath,
        false,
        async (parent, name) => lstatOrUndefined(parent.entry(name)),
        () => undefined,
      );
    },
    async readFile(relativePath) {
      return withParent(
        relativePath,
        false,
        async (parent, name) => {
          let handle: FileHandle;
          try {
            handle = await open(parent.entry(name), READ_FLAGS);
          } catch (error) {
            if (codeOf(error) === "ELOOP") throw escapes(canonicalRoot, relativePath, "it is a symlink");
            throw error;
          }
          try {
            const info = await handle.stat();
            if (!info.isFile()) throw escapes(canonicalRoot, relativePath, "it is not a regular file");
            return await handle.readFile();
          } finally {
            await handle.close();
          }
        },
        () => missingError(relativePath),
      );
    },
    async readdir(relativePath) {
      const parts = relativePath === "" || relativePath === "." ? [] : splitContainedPath(canonicalRoot, relativePath);
      const directory = openDirectory(relativePath, parts, false);
      if (!directory) missingError(relativePath);
      try {
        return await readdir(directory.self(), { withFileTypes: true });
      } finally {
        directory.close();
      }
    },
    async readlink(relativePath) {
      return withParent(
        relativePath,
        false,
        async (parent, name) => readlink(parent.entry(name)),
        () => missingError(relativePath),
      );
    },
    async writeFile(relativePath, data, options) {
      await withParent(
        relativePath,
        options?.createParents ?? true,
        (parent, name) =>
          replaceWith(parent, name, options, async (temporary) => {
            const handle = await open(temporary, CREATE_FLAGS, options?.mode ?? 0o666);
            try {
              if (options?.mode !== undefined && (fstatSync(handle.fd).mode & 0o7777) !== options.mode) await handle.chmod(options.mode);
              await handle.writeFile(data);
              if (options?.durable) await handle.sync();
            } finally {
              await handle.close();
            }
          }),
        () => missingError(path.posix.dirname(relativePath)),
      );
    },
    async symlink(relativePath, target, options) {
      await withParent(
        relativePath,
        options?.createParents ?? true,
        (parent, name) => replaceWith(parent, name, options, (temporary) => symlink(target, temporary)),
        () => missingError(path.posix.dirname(relativePath)),
      );
    },
    async mkdir(relativePath, options) {
      const parts = splitContainedPath(canonicalRoot, relativePath);
      if (options?.recursive) {
        openDirectory(relativePath, parts, true, options.mode)?.close();
        return;
      }
      await withParent(
        relativePath,
        false,
        async (parent, name) => {
          mkdirSync(parent.entry(name), options?.mode);
          if (options?.mode !== undefined) fchmodDirectory(parent, name, options.mode, relativePath);
        },
        () => missingError(path.posix.dirname(relativePath)),
      );
    },
    async chmod(relativePath, mode) {
      await withParent(
        relativePath,
        false,
        async (parent, name) => {
          const info = lstatOrUndefined(parent.entry(name));
          if (!info) missingError(relativePath);
          if (info.isSymbolicLink()) throw escapes(canonicalRoot, relativePath, "it is a symlink");
          if (info.isDirectory()) return fchmodDirectory(parent, name, mode, relativePath);
          const handle = await open(parent.entry(name), READ_FLAGS);
          try {
            await handle.chmod(mode);
          } finally {
            await handle.close();
          }
        },
        () => missingError(relativePath),
      );
    },
    async remove(relativePath, options) {
      return withParent(
        relativePath,
        false,
        async (parent, name) => {
          const info = lstatOrUndefined(parent.entry(name));
          if (!info) return false;
          if (info.isDirectory()) await rmdir(parent.entry(name));
          else await unlink(parent.entry(name));
          if (options?.durable) syncDirectory(parent);
          return true;
        },
        () => false,
      );
    },
    async rename(fromPath, toPath) {
      await withParent(
        fromPath,
        false,
        (fromParent, fromName) =>
          withParent(
            toPath,
            true,
            (toParent, toName) => rename(fromParent.entry(fromName), toParent.entry(toName)),
            () => missingError(path.posix.dirname(toPath)),
          ),
        () => missingError(fromPath),
      );
    },
    close() {
      rootDirectory.close();
    },
  };
  return tree;
}

function lstatOrUndefined(entryPath: string): Stats | undefined {
  try {
    return lstatSync(entryPath);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined;
    throw error;
  }
}

function syncDirectory(directory: AnchoredDirectory): void {
  const fd = openSync(directory.self(), constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    fsyncSync(fd);
  } catch (error) {
    // Some file systems do not sync directories (EINVAL): the rename itself is still atomic.
    if (codeOf(error) !== "EINVAL" && codeOf(error) !== "EISDIR") throw error;
  } finally {
    closeSync(fd);
  }
}
