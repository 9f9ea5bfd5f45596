import { createHash } from "node:crypto";
import { fstatSync, fsyncSync } from "node:fs";
import { mkdir, readFile, readdir, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { acquireFileLock, anchorDirectory, writeFileAtomic } from "@agent-tools/file-io/internal";
import type { MemoryScope } from "../domain/memory-types.js";
import type { MemoryEntryLocation, MemoryLayout } from "./memory-layout.js";

/** One Markdown file as read: its text and the state the index records. */
export interface MemoryFileSnapshot {
  readonly text: string;
  /** SHA-256 hex of the bytes. */
  readonly hash: string;
  readonly mtimeMs: number;
  readonly size: number;
}

/** The state of a file right after a write. */
export interface MemoryFileWritten {
  readonly hash: string;
  readonly mtimeMs: number;
  readonly size: number;
}

/** SHA-256 hex of bytes or text (UTF-8). */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Reads a Markdown file; undefined when it does not exist. */
export async function readMemoryFile(filePath: string): Promise<MemoryFileSnapshot | undefined> {
  try {
    const [bytes, info] = await Promise.all([readFile(filePath), stat(filePath)]);
    return { text: bytes.toString("utf8"), hash: sha256Hex(bytes), mtimeMs: info.mtimeMs, size: bytes.length };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Replaces `directory/fileName` atomically with `text` (the atomic write of
 * the file tools: a temporary file beside it, then a rename through the held
 * directory), then flushes the file to disk. Readers and a process killed at
 * any moment see the old or the new content, never a mix.
 */
export async function writeMemoryFile(directory: string, fileName: string, text: string): Promise<MemoryFileWritten> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const bytes = Buffer.from(text, "utf8");
  const held = anchorDirectory(directory);
  let mtimeMs = Date.now();
  try {
    await writeFileAtomic(held, fileName, bytes, undefined, undefined, (fd) => {
      fsyncSync(fd);
      mtimeMs = fstatSync(fd).mtimeMs;
    });
  } finally {
    held.close();
  }
  return { hash: sha256Hex(bytes), mtimeMs, size: bytes.length };
}

/** Removes a file; true when it existed. */
export async function removeMemoryFile(filePath: string): Promise<boolean> {
  try {
    await unlink(filePath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/**
 * Runs `action` holding the cross-process lock of one entry (a lock file
 * created with O_EXCL beside the entry; a lock left by a killed process is
 * broken by the next writer). Every read-modify-write of an entry runs
 * inside it, so two registries or two processes on one memory root take
 * turns instead of losing an update.
 */
export async function withEntryLock<T>(location: MemoryEntryLocation, action: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  await mkdir(location.lockDirectory, { recursive: true, mode: 0o700 });
  const held = anchorDirectory(location.lockDirectory);
  let lock: { release(): void };
  try {
    lock = await acquireFileLock(held, location.lockName, {
      toolName: "MemoryManager",
      displayPath: path.join(location.lockDirectory, location.lockName),
      signal,
    });
  } catch (error) {
    held.close();
    throw error;
  }
  try {
    return await action();
  } finally {
    lock.release();
    held.close();
  }
}

/** One Markdown file found under the memory root. */
export interface MemoryFileEntry {
  readonly scope: MemoryScope;
  readonly workdirHash: string;
  /** The slug the file name gives (`daily-<date>` for journals). */
  readonly slug: string;
  /** Which directory it was found in (gives the fallback type). */
  readonly directory: "global" | "user" | "daily" | "project";
  readonly path: string;
  readonly mtimeMs: number;
  readonly size: number;
}

const MARKDOWN = /^[^.].*\.md$/;
const PROJECT_HASH = /^[0-9a-f]{16}$/;

async function markdownIn(directory: string): Promise<{ name: string; path: string; mtimeMs: number; size: number }[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const files = await Promise.all(
    names
      .filter((name) => MARKDOWN.test(name))
      .map(async (name) => {
        const filePath = path.join(directory, name);
        const info = await stat(filePath).catch(() => undefined);
        return info?.isFile() ? { name, path: filePath, mtimeMs: info.mtimeMs, size: info.size } : undefined;
      }),
  );
  return files.filter((file) => file !== undefined);
}

/**
 * Every entry file under the memory root (hidden files, temporary files and
 * locks left out). Names that are not valid slugs are returned too; the
 * caller decides what to do with them.
 */
export async function listMemoryFiles(layout: MemoryLayout): Promise<MemoryFileEntry[]> {
  const global = path.join(layout.root, "global");
  const out: MemoryFileEntry[] = [];
  const slugOf = (name: string) => name.slice(0, -3);
  for (const file of await markdownIn(global)) out.push({ scope: "global", workdirHash: "", slug: slugOf(file.name), directory: "global", ...file });
  for (const file of await markdownIn(path.join(global, "user")))
    out.push({ scope: "global", workdirHash: "", slug: slugOf(file.name), directory: "user", ...file });
  for (const file of await markdownIn(path.join(global, "daily")))
    out.push({ scope: "global", workdirHash: "", slug: `daily-${slugOf(file.name)}`, directory: "daily", ...file });
  let projects: string[] = [];
  try {
    projects = await readdir(path.join(layout.root, "projects"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  for (const hash of projects.filter((name) => PROJECT_HASH.test(name))) {
    for (const file of await markdownIn(path.join(layout.root, "projects", hash)))
      out.push({ scope: "project", workdirHash: hash, slug: slugOf(file.name), directory: "project", ...file });
  }
  return out;
}
