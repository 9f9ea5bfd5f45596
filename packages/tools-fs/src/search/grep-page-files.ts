/**
 * Opening the files of a Grep page by the paths ripgrep printed, on a tree
 * the model controls and may rearrange between ripgrep's run and the open.
 *
 * Each path is walked from the searched directory held open, one component
 * at a time, every directory opened with `O_NOFOLLOW | O_DIRECTORY` through
 * the one before it (`/proc/self/fd/<fd>/<name>`, see `anchorChild`), and
 * the file with `O_NOFOLLOW | O_NONBLOCK`, then checked with `fstat` to be
 * a regular file: a symlink swapped in anywhere on the way (leaf or parent),
 * a FIFO or a device is refused, never followed, never waited on. Where
 * `/proc/self/fd` is missing (macOS) only the last component is protected
 * (the residual race docs/tools-fs.md states for the file tools).
 *
 * ripgrep itself opens the paths it is given by name and follows a symlink
 * there, and blocks on a FIFO: a file searched again by ripgrep is therefore
 * opened here first and given to it as `/proc/<pid>/fd/<fd>` of this
 * process, which reaches the very file opened and checked here
 * ({@link pinPageFiles}).
 */
import { closeSync, constants, existsSync, fstatSync, openSync } from "node:fs";
import path from "node:path";
import type { GrepByteRange, GrepFileHits } from "./grep-result.js";
import { type AnchoredDirectory, anchorChild, anchorDirectory } from "@agent-tools/file-io/internal";

/** Opened without waiting (a FIFO swapped in) and without following a symlink at the leaf. */
const FILE_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** The files of a page opened under one directory; close it once their descriptors are no longer needed. */
export interface PageFileOpener {
  /** A descriptor of the regular file at `relative` (ripgrep's path, `/`-separated) inside the directory, or undefined (missing, a symlink or special file on the way, unreadable). */
  open(relative: string): { fd: number; size: number } | undefined;
  /** True when paths are walked through held descriptors (Linux with `/proc/self/fd`), false on the path fallback or when the directory did not open. */
  anchored(): boolean;
  /** Closes the directories held (the files' descriptors are the caller's). */
  close(): void;
}

/** Opens page files under `directory` (its canonical path), each through its parent directories held open (see the module comment). */
export function pageFileOpener(directory: string): PageFileOpener {
  const held = new Map<string, AnchoredDirectory | null>();
  const directoryAt = (relative: string): AnchoredDirectory | null => {
    const known = held.get(relative);
    if (known !== undefined) return known;
    let opened: AnchoredDirectory | null = null;
    try {
      if (relative === "") opened = anchorDirectory(directory);
      else {
        const parent = directoryAt(path.posix.dirname(relative) === "." ? "" : path.posix.dirname(relative));
        if (parent) opened = anchorChild(parent, path.posix.basename(relative));
      }
    } catch {
      opened = null; // a symlink or a file on the way, or gone: nothing below it is opened
    }
    held.set(relative, opened);
    return opened;
  };
  return {
    open(relative) {
      const parts = relative.split("/");
      if (parts.some((part) => part === "" || part === "." || part === "..")) return undefined;
      const name = parts.pop()!;
      const parent = directoryAt(parts.join("/"));
      if (!parent) return undefined;
      let fd: number;
      try {
        fd = openSync(parent.entry(name), FILE_FLAGS);
      } catch {
        return undefined;
      }
      try {
        const stat = fstatSync(fd);
        if (stat.isFile()) return { fd, size: stat.size };
      } catch {
        // closed below
      }
      closeSync(fd);
      return undefined;
    },
    anchored: () => directoryAt("")?.anchored ?? false,
    close() {
      for (const opened of held.values()) opened?.close();
      held.clear();
    },
  };
}

/** Page files opened for a ripgrep run (see {@link pinPageFiles}). */
export interface PinnedPageFiles {
  /** ripgrep's file arguments: one per file that opened as a regular file inside the directory. */
  args: string[];
  /** The page path of a path ripgrep printed. */
  pageOf(printed: string): string | undefined;
  /** Closes the files' descriptors (once the run ended). */
  close(): void;
}

/**
 * Opens `files` (page paths relative to `directory`) for a ripgrep run:
 * each is given to ripgrep as `/proc/<pid>/fd/<fd>` of the file opened and
 * checked here, so ripgrep reads that file whatever the tree looks like by
 * then; a file that does not open as a regular file inside the directory is
 * left out (the tree changed since ripgrep's first run). Without
 * `/proc/self/fd` the files are given as `./<path>` (ripgrep opens them by
 * name: the residual race of other platforms).
 */
export function pinPageFiles(directory: string, files: readonly string[]): PinnedPageFiles {
  const opener = pageFileOpener(directory);
  // Without procfs (macOS) the opener is not anchored either; on Linux a directory that did not open leaves every file out.
  if (!opener.anchored() && !(process.platform === "linux" && existsSync(`/proc/${process.pid}/fd`))) {
    opener.close();
    return { args: files.map((file) => `./${file}`), pageOf: (printed) => printed.replace(/^\.\//, ""), close: () => undefined };
  }
  const byArgument = new Map<string, string>();
  const fds: number[] = [];
  try {
    for (const file of files) {
      const opened = opener.open(file);
      if (!opened) continue;
      fds.push(opened.fd);
      byArgument.set(`/proc/${process.pid}/fd/${opened.fd}`, file);
    }
  } finally {
    opener.close();
  }
  return {
    args: [...byArgument.keys()],
    pageOf: (printed) => byArgument.get(printed),
    close() {
      for (const fd of fds.splice(0)) closeSync(fd);
    },
  };
}

/** Hits ripgrep printed for a pinned file (`/proc/<pid>/fd/<fd>`), under the file's page path. */
export class PagePathHits implements GrepFileHits {
  constructor(
    readonly path: string,
    private readonly inner: GrepFileHits,
  ) {}
  get matchCount(): number {
    return this.inner.matchCount;
  }
  get firstMatchLine(): number {
    return this.inner.firstMatchLine;
  }
  matchLines(): readonly number[] {
    return this.inner.matchLines();
  }
  lineText(line: number): string | undefined {
    return this.inner.lineText(line);
  }
  lineBytes(line: number, range: GrepByteRange): boolean {
    return this.inner.lineBytes?.(line, range) ?? false;
  }
  matchRecords(range: GrepByteRange): boolean {
    return this.inner.matchRecords?.(range) ?? false;
  }
  release(): void {
    this.inner.release?.();
  }
}
