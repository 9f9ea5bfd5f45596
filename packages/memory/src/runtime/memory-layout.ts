import { createHash, randomBytes } from "node:crypto";
import { link, mkdir, realpath, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { MemoryKey, MemoryScope, StoredMemoryType } from "../domain/memory-types.js";

/**
 * Where the Markdown files of the memory live, under one root (by default
 * `<dataDir>/memory`):
 *
 * - `global/<slug>.md`: global entries of type `project` and `reference`;
 * - `global/user/<slug>.md`: global entries of type `user` and `feedback`;
 * - `global/daily/<YYYY-MM-DD>.md`: the daily journals (slug `daily-<date>`);
 * - `projects/<hash>/<slug>.md`: entries of one project, whatever their type,
 *   where `<hash>` is the first 16 hex characters of the SHA-256 of the
 *   project's canonical workdir (its realpath); `projects/<hash>/.workdir.json`
 *   (`{ path, createdAt }`, written once) says which directory that was.
 */
export interface MemoryLayout {
  /** Canonical (realpath) root of the memory files. */
  readonly root: string;
}

/** Where one entry's file lives: the directory, the file name, and the directory of its lock. */
export interface MemoryEntryLocation {
  readonly directory: string;
  readonly fileName: string;
  /**
   * The directory whose lock serialises changes of this key. Global entries of
   * every type lock in `global/` (a change of type moves the file between
   * `global/` and `global/user/`, so the lock cannot follow the file).
   */
  readonly lockDirectory: string;
  /** The lock's name inside {@link lockDirectory}. */
  readonly lockName: string;
}

/** The default memory root: `<dataDir>/memory`. */
export function defaultMemoryRoot(dataDir: string): string {
  return path.join(dataDir, "memory");
}

/** First 16 hex characters of the SHA-256 of a canonical workdir. */
export function workdirHashOf(canonicalWorkdir: string): string {
  return createHash("sha256").update(canonicalWorkdir).digest("hex").slice(0, 16);
}

/** The canonical form of a workdir (its realpath; the path itself when it does not exist). */
export async function canonicalWorkdir(workdir: string): Promise<string> {
  return realpath(workdir).catch(() => path.resolve(workdir));
}

/**
 * Creates the root and its fixed directories (missing ones mode 0700: the
 * memories are the user's alone; an existing one keeps its mode) and returns
 * the layout with the root's realpath (the atomic writes anchor on
 * symlink-free paths).
 *
 * @example
 * const layout = await openMemoryLayout("/home/me/.agent-tools/memory");
 */
export async function openMemoryLayout(root: string): Promise<MemoryLayout> {
  await mkdir(path.join(root, "global", "user"), { recursive: true, mode: 0o700 });
  await mkdir(path.join(root, "global", "daily"), { recursive: true, mode: 0o700 });
  await mkdir(path.join(root, "projects"), { recursive: true, mode: 0o700 });
  return { root: await realpath(root) };
}

/** The directory of the global scope. */
export function globalDirectory(layout: MemoryLayout): string {
  return path.join(layout.root, "global");
}

/** The directory of one project. */
export function projectDirectory(layout: MemoryLayout, workdirHash: string): string {
  return path.join(layout.root, "projects", workdirHash);
}

/** The `YYYY-MM-DD` of a daily slug (`daily-YYYY-MM-DD`), or undefined. */
export function dailyDateOfSlug(slug: string): string | undefined {
  const match = /^daily-(\d{4}-\d{2}-\d{2})$/.exec(slug);
  return match?.[1];
}

/** Where the file of `key` with `type` lives. */
export function entryLocation(layout: MemoryLayout, key: MemoryKey, type: StoredMemoryType): MemoryEntryLocation {
  if (key.scope === "project") {
    const directory = projectDirectory(layout, key.workdirHash);
    return { directory, fileName: `${key.slug}.md`, lockDirectory: directory, lockName: `${key.slug}.md` };
  }
  const global = globalDirectory(layout);
  if (type === "daily") {
    const date = dailyDateOfSlug(key.slug) ?? key.slug;
    const directory = path.join(global, "daily");
    return { directory, fileName: `${date}.md`, lockDirectory: directory, lockName: `${date}.md` };
  }
  const directory = type === "user" || type === "feedback" ? path.join(global, "user") : global;
  return { directory, fileName: `${key.slug}.md`, lockDirectory: global, lockName: `${key.slug}.md` };
}

/**
 * Every place the file of `key` may be, whatever its type: for a global
 * non-daily slug both `global/` and `global/user/`.
 */
export function candidateLocations(layout: MemoryLayout, key: MemoryKey): readonly MemoryEntryLocation[] {
  if (key.scope === "project") return [entryLocation(layout, key, "project")];
  if (dailyDateOfSlug(key.slug) !== undefined) return [entryLocation(layout, key, "daily")];
  return [entryLocation(layout, key, "reference"), entryLocation(layout, key, "user")];
}

/** The type a file gets when its front matter names none, from its directory. */
export function fallbackTypeOf(scope: MemoryScope, directory: "global" | "user" | "daily" | "project"): StoredMemoryType {
  if (scope === "project") return "project";
  return directory === "user" ? "user" : directory === "daily" ? "daily" : "reference";
}

/**
 * Creates a project's directory and, the first time, its `.workdir.json`
 * (`{ path, createdAt }`); an existing one is left as it is. The file is
 * written beside and then hard-linked into place, so a process killed
 * meanwhile never leaves a half-written one, and of two processes racing to
 * create it one wins.
 */
export async function ensureProjectDirectory(layout: MemoryLayout, workdirHash: string, workdir: string, now: number): Promise<void> {
  const directory = projectDirectory(layout, workdirHash);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const target = path.join(directory, ".workdir.json");
  if ((await stat(target).catch(() => undefined)) !== undefined) return;
  const body = `${JSON.stringify({ path: workdir, createdAt: new Date(now).toISOString() }, null, 2)}\n`;
  const temporary = path.join(directory, `.workdir.json.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  await writeFile(temporary, body, { flag: "wx" });
  try {
    await link(temporary, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}
