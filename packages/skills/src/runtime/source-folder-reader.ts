/**
 * Reads a folder a skill is installed from without ever following a
 * symlink and without opening anything by a name checked earlier.
 *
 * Every directory is opened with `O_NOFOLLOW` through the directory held
 * just before it (file-io `anchorDirectory` / `anchorChild`), every file
 * with `O_NOFOLLOW | O_NONBLOCK` through its held directory, and what was
 * opened is judged by `fstat` of the descriptor: a regular file is read
 * from that descriptor, anything else (a symlink, a FIFO, a socket, a
 * device) refuses the whole folder. A file flipped to a symlink after it
 * was listed fails to open (`ELOOP`) instead of being read through.
 *
 * Where `/proc/self/fd` is missing (macOS), entries are reached by full
 * path with `O_NOFOLLOW` on the last component: a parent folder swapped
 * for a symlink mid-walk is not caught there (docs/safety.md).
 */
import { constants, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { type FileHandle, open, opendir } from "node:fs/promises";
import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { type AnchoredDirectory, anchorChild, anchorDirectory } from "@agent-tools/file-io/internal";
import { SKILL_LIMITS } from "../domain/skill-types.js";

/** What a walk hands over, in sorted order, parents before their contents. */
export interface SourceFolderVisitor {
  directory?(relativePath: string): Promise<void> | void;
  file(relativePath: string, data: Uint8Array, executable: boolean): Promise<void> | void;
}

/** Options of {@link readSourceFolder}. */
export interface SourceFolderOptions {
  /**
   * Called with the canonical path of the opened folder (read from its
   * descriptor) before anything inside is read; throw to refuse it (the
   * tool layer applies the registry's read policy here).
   */
  readonly checkOpened?: (canonicalPath: string) => void;
  /** Top-level names left out (the `.git` of a cloned repository). */
  readonly skipTopLevel?: readonly string[];
  /** How messages name the folder, e.g. its path as given. */
  readonly label?: string;
  readonly signal?: AbortSignal;
}

const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0);
const READ_STEP = 64 * 1024;

const codeOf = (error: unknown) => (error as { code?: string } | null)?.code;

const symlinkRefusal = (label: string, relativePath: string) =>
  new ToolError(
    "invalid_arguments",
    relativePath === ""
      ? `The source folder ${label} is a symlink; give the folder it points to.`
      : `${relativePath} in ${label} is a symlink; skills may not contain symlinks. Replace it with the file itself.`,
    { details: { path: relativePath } },
  );

/**
 * Walks the folder `base/segments...`: `base` is resolved once (symlinks
 * in it are followed, as a host's own path may hold them), each of
 * `segments` and everything below is opened without following symlinks.
 * Refuses symlinks anywhere (the folder itself included), special files,
 * more than `skillMaxFiles` files, files over `fileMaxBytes`, more than
 * `skillMaxBytes` in all and nesting deeper than `folderMaxDepth`,
 * counting the bytes really read, not the sizes listed.
 *
 * @example
 * await readSourceFolder("/home/me/src", ["pdf"], { file: (relative, data) => tree.writeFile(`pdf/${relative}`, data) });
 */
export async function readSourceFolder(
  base: string,
  segments: readonly string[],
  visitor: SourceFolderVisitor,
  options: SourceFolderOptions = {},
): Promise<void> {
  const label = options.label ?? path.join(base, ...segments);
  if (segments.some((segment) => segment === "" || segment === "." || segment === ".." || segment.includes("/") || segment.includes("\0"))) {
    throw new ToolError("invalid_arguments", `${label} is not a plain folder path (it holds an empty, . or .. component).`, { details: { path: label } });
  }
  const folder = openFolder(base, segments, label);
  try {
    options.checkOpened?.(folder.anchored ? readlinkSync(folder.self()) : realpathSync(folder.path));
    const budget = { files: 0, entries: 0, bytes: 0 };
    await walk(folder, "", 0, { visitor, options, label, budget });
  } finally {
    folder.close();
  }
}

/** Opens `base` (resolved) and then each segment without following a symlink. */
function openFolder(base: string, segments: readonly string[], label: string): AnchoredDirectory {
  let canonicalBase: string;
  try {
    canonicalBase = realpathSync(base);
  } catch (error) {
    throw openError(error, label, "");
  }
  let current: AnchoredDirectory;
  try {
    current = anchorDirectory(canonicalBase);
  } catch (error) {
    if ((error as Error).name === "DirectoryMovedError") throw changedWhileRead(label, "");
    throw openError(error, label, "");
  }
  for (const [index, name] of segments.entries()) {
    try {
      const next = openChildDirectory(current, name);
      current.close();
      current = next;
    } catch (error) {
      current.close();
      throw openError(error, label, index === segments.length - 1 ? "" : segments.slice(0, index + 1).join("/"));
    }
  }
  return current;
}

function openError(error: unknown, label: string, relativePath: string): unknown {
  switch (codeOf(error)) {
    case "ENOENT":
      return new ToolError("not_found", `The source folder ${label} does not exist. Check the source path.`, { details: { path: label } });
    case "ELOOP":
      return symlinkRefusal(label, relativePath);
    case "ENOTDIR":
      return new ToolError("not_a_directory", `${label} is not a folder. Give a skill folder, a .zip / .skill archive, a URL or a git repository.`, {
        details: { path: label },
      });
    default:
      return error;
  }
}

/**
 * `anchorChild`, failing with `ELOOP` for a symlink and `ENOTDIR` for
 * anything else that is not a directory (Linux answers `ENOTDIR` for both
 * under `O_DIRECTORY | O_NOFOLLOW`; `lstat` tells them apart for the
 * message only, the refusal stands either way). Without a descriptor to go
 * through, `lstat` does the symlink check first.
 */
function openChildDirectory(parent: AnchoredDirectory, name: string): AnchoredDirectory {
  const refusal = () => {
    const info = lstatSync(parent.entry(name), { throwIfNoEntry: false });
    if (info === undefined) return Object.assign(new Error(`${name} is missing`), { code: "ENOENT" });
    if (info.isSymbolicLink()) return Object.assign(new Error(`${name} is a symlink`), { code: "ELOOP" });
    return Object.assign(new Error(`${name} is not a directory`), { code: "ENOTDIR" });
  };
  if (!parent.anchored) {
    const info = lstatSync(parent.entry(name), { throwIfNoEntry: false });
    if (info === undefined || !info.isDirectory()) throw refusal();
  }
  try {
    return anchorChild(parent, name);
  } catch (error) {
    if (codeOf(error) === "ENOTDIR" || codeOf(error) === "ELOOP") throw refusal();
    throw error;
  }
}

interface WalkState {
  readonly visitor: SourceFolderVisitor;
  readonly options: SourceFolderOptions;
  readonly label: string;
  readonly budget: { files: number; entries: number; bytes: number };
}

async function walk(directory: AnchoredDirectory, relative: string, depth: number, state: WalkState): Promise<void> {
  const { label, budget } = state;
  if (depth > SKILL_LIMITS.folderMaxDepth) {
    throw new ToolError("too_large", `${relative} in ${label} is nested more than ${SKILL_LIMITS.folderMaxDepth} folders deep; a skill may not be.`, {
      details: { path: relative, cap: SKILL_LIMITS.folderMaxDepth },
    });
  }
  for (const name of await listNames(directory, state)) {
    if (depth === 0 && state.options.skipTopLevel?.includes(name)) continue;
    state.options.signal?.throwIfAborted();
    const entryPath = relative === "" ? name : `${relative}/${name}`;
    const info = lstatSync(directory.entry(name), { throwIfNoEntry: false });
    if (info === undefined) throw changedWhileRead(label, entryPath);
    if (info.isSymbolicLink()) throw symlinkRefusal(label, entryPath);
    if (info.isDirectory()) {
      let child: AnchoredDirectory;
      try {
        child = openChildDirectory(directory, name);
      } catch (error) {
        if (codeOf(error) === "ELOOP") throw symlinkRefusal(label, entryPath);
        if (codeOf(error) === "ENOTDIR" || codeOf(error) === "ENOENT") throw changedWhileRead(label, entryPath);
        throw error;
      }
      try {
        await state.visitor.directory?.(entryPath);
        await walk(child, entryPath, depth + 1, state);
      } finally {
        child.close();
      }
      continue;
    }
    if (!info.isFile()) throw specialFile(label, entryPath);
    budget.files += 1;
    if (budget.files > SKILL_LIMITS.skillMaxFiles) {
      throw new ToolError("too_large", `${label} holds more than ${SKILL_LIMITS.skillMaxFiles} files; a skill may not.`, {
        details: { cap: SKILL_LIMITS.skillMaxFiles },
      });
    }
    const { data, executable } = await readRegularFile(directory, name, entryPath, state);
    await state.visitor.file(entryPath, data, executable);
  }
}

/** The names in a directory, sorted; refuses a directory with more entries than a skill may hold. */
async function listNames(directory: AnchoredDirectory, state: WalkState): Promise<string[]> {
  const names: string[] = [];
  const cap = SKILL_LIMITS.skillMaxFiles * 2;
  for await (const entry of await opendir(directory.self())) {
    state.budget.entries += 1;
    if (state.budget.entries > cap) {
      throw new ToolError("too_large", `${state.label} holds more than ${cap} files and folders; a skill may not.`, { details: { cap } });
    }
    names.push(entry.name);
  }
  return names.sort();
}

/** Opens a file without following a symlink, checks the descriptor is a regular file and reads it (capped) from that descriptor. */
async function readRegularFile(
  directory: AnchoredDirectory,
  name: string,
  entryPath: string,
  state: WalkState,
): Promise<{ data: Uint8Array; executable: boolean }> {
  let handle: FileHandle;
  try {
    handle = await open(directory.entry(name), FILE_FLAGS);
  } catch (error) {
    if (codeOf(error) === "ELOOP") throw symlinkRefusal(state.label, entryPath);
    if (codeOf(error) === "ENOENT") throw changedWhileRead(state.label, entryPath);
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw specialFile(state.label, entryPath);
    const remaining = SKILL_LIMITS.skillMaxBytes - state.budget.bytes;
    const data = await readCapped(handle, Math.min(SKILL_LIMITS.fileMaxBytes, remaining) + 1);
    if (data.length > SKILL_LIMITS.fileMaxBytes) {
      throw new ToolError(
        "too_large",
        `${entryPath} in ${state.label} is over ${SKILL_LIMITS.fileMaxBytes} bytes (the per-file cap); a skill file may not be.`,
        {
          details: { path: entryPath, cap: SKILL_LIMITS.fileMaxBytes },
        },
      );
    }
    state.budget.bytes += data.length;
    if (state.budget.bytes > SKILL_LIMITS.skillMaxBytes) {
      throw new ToolError("too_large", `${state.label} holds more than ${SKILL_LIMITS.skillMaxBytes} bytes (the total cap); a skill may not.`, {
        details: { cap: SKILL_LIMITS.skillMaxBytes },
      });
    }
    return { data, executable: (stats.mode & 0o111) !== 0 };
  } finally {
    await handle.close();
  }
}

/** Reads at most `limit` bytes from the descriptor (whatever size it reported). */
async function readCapped(handle: FileHandle, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(READ_STEP, limit - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

function specialFile(label: string, entryPath: string): ToolError {
  return new ToolError("invalid_arguments", `${entryPath} in ${label} is not a regular file (a FIFO, socket or device); skills hold only files and folders.`, {
    details: { path: entryPath },
  });
}

function changedWhileRead(label: string, entryPath: string): ToolError {
  const what = entryPath === "" ? label : `${entryPath} in ${label}`;
  return new ToolError("conflict", `${what} changed while it was being read; nothing was installed. Retry once the folder is stable.`, {
    details: { path: entryPath },
  });
}
