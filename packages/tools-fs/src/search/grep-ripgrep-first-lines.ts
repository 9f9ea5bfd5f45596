/**
 * The first matching line of each file on a files page of a plain literal,
 * found after one `--count` run over the tree. ripgrep has no output that
 * gives a file's matching lines and its first one at `--count`'s cost
 * (every match printed as its line number costs up to 1.3x `rg -l` on a
 * common word), and a second ripgrep run over the page's files costs a
 * process start (10-20% of `rg -l` on a tree of 3,000 files). A plain
 * literal ({@link plainLiteral}) means the same here as in ripgrep, so its
 * first occurrence in each of the page's files is found in this process;
 * a file it is not found in (binary, large) is left to one ripgrep run with
 * `--max-count 1` over those files only. The paths are ripgrep's, on a tree
 * the model may rearrange meanwhile: each is opened without following a
 * symlink anywhere on the way ({@link pageFileOpener}), and a file that no
 * longer opens as a regular file inside the directory is refused (no first
 * line), never given to ripgrep by name.
 */
import { closeSync, readSync } from "node:fs";
import type { GrepQuery } from "./grep-ripgrep.js";
import { createLiteralFinder } from "./grep-line-scan.js";
import { pageFileOpener } from "./grep-page-files.js";

/** Most bytes of a file searched here (a first match past them is left to ripgrep, which stops at the first match). */
const IN_PROCESS_MAX_BYTES = 8 * 1024 * 1024;

/** Bytes of a file read at first; more (doubling) only while its first match is not found in them. */
const FIRST_READ_BYTES = 64 * 1024;

/** Files searched between two yields to the event loop (abort checks). */
const FILES_PER_SLICE = 64;

/** Bytes read between two yields to the event loop (a page of large files would hold it for seconds). */
const BYTES_PER_SLICE = 16 * 1024 * 1024;

/** Characters with a meaning in ripgrep's regex syntax outside escapes (and line breaks, which it refuses). */
const SPECIAL = new Set(["\\", ".", "^", "$", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}", "\n", "\r"]);

/** Characters whose escape means the character itself in ripgrep's syntax (its meta characters, and `/`; not `\<`, a word boundary). */
const ESCAPED_LITERALLY = new Set(["\\", ".", "+", "*", "?", "(", ")", "|", "[", "]", "{", "}", "^", "$", "#", "&", "-", "~", "/"]);

/**
 * The text a pattern matches when it is a plain literal: no special
 * character, escapes only of ripgrep's meta characters (`\(`, `\.`);
 * undefined otherwise (classes such as `\w` and `.`, anchors, flags, which
 * ripgrep and JavaScript do not read alike).
 *
 * @example
 * plainLiteral("fetchUser\\(id"); // "fetchUser(id"
 * plainLiteral("a.b"); // undefined
 */
export function plainLiteral(pattern: string): string | undefined {
  let literal = "";
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index]!;
    if (character === "\\") {
      const next = pattern[index + 1];
      if (next === undefined || !ESCAPED_LITERALLY.has(next)) return undefined;
      literal += next;
      index += 1;
      continue;
    }
    if (SPECIAL.has(character)) return undefined;
    literal += character;
  }
  return literal.length > 0 ? literal : undefined;
}

/** A file of a files page: its path (relative to the search directory) and the matching lines ripgrep counted. */
export interface PageFile {
  path: string;
  count: number;
}

/**
 * The first matching line of the regular file opened as `fd` (`size` bytes
 * at its fstat): its first {@link FIRST_READ_BYTES} bytes are read into
 * `scratch.buffer` (grown as needed and reused from file to file) and
 * searched with `search` (a line, or undefined), and more of the file,
 * twice as much each time, only while nothing is found: a first match near
 * the start of a large file costs the read of its start. Undefined when no
 * match is found in the file's first {@link IN_PROCESS_MAX_BYTES}, when the
 * bytes read hold a NUL (ripgrep decides on binary files), or on a read
 * error. The bytes read are added to `scratch.bytesRead`.
 */
function firstLineOf(
  opened: { fd: number; size: number },
  scratch: { buffer: Buffer; bytesRead: number },
  search: (bytes: Buffer) => number | undefined,
): number | undefined {
  const size = Math.min(opened.size, IN_PROCESS_MAX_BYTES);
  let wanted = Math.min(size, FIRST_READ_BYTES);
  let filled = 0;
  try {
    for (;;) {
      if (scratch.buffer.length < wanted) {
        const larger = Buffer.allocUnsafe(Math.max(wanted, scratch.buffer.length * 2));
        scratch.buffer.copy(larger, 0, 0, filled);
        scratch.buffer = larger;
      }
      const buffer = scratch.buffer;
      let ended = false;
      while (filled < wanted) {
        const read = readSync(opened.fd, buffer, filled, wanted - filled, filled);
        if (read === 0) {
          ended = true;
          break;
        }
        filled += read;
        scratch.bytesRead += read;
      }
      const bytes = buffer.subarray(0, filled);
      if (bytes.indexOf(0) !== -1) return undefined;
      const line = search(bytes);
      if (line !== undefined || ended || filled >= size) return line;
      wanted = Math.min(size, wanted * 2);
    }
  } catch {
    return undefined;
  }
}

/** 1 + the line feeds of `bytes` before `end`. */
function lineAt(bytes: Buffer, end: number): number {
  let line = 1;
  for (let index = bytes.indexOf(10); index !== -1 && index < end; index = bytes.indexOf(10, index + 1)) line += 1;
  return line;
}

/** 1 + the line feeds of `text` before `end`. */
function textLineAt(text: string, end: number): number {
  let line = 1;
  for (let index = text.indexOf("\n"); index !== -1 && index < end; index = text.indexOf("\n", index + 1)) line += 1;
  return line;
}

/** Escapes `text` for a JavaScript regular expression. */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/** What {@link firstLinesInProcess} found. */
export interface FirstLinesFound {
  /** The first matching line of each file whose first match was found here. */
  lines: Map<string, number>;
  /**
   * Files that did not open as a regular file inside the directory (gone, a
   * symlink or special file swapped in at the leaf or on the way, unreadable):
   * the tree changed since ripgrep's run, and ripgrep, which follows a
   * symlink and waits on a FIFO given by name, must not search them again.
   */
  refused: Set<string>;
}

/**
 * First matching lines of `files` found in this process (see the module
 * comment). Each file is opened through its parent directories held open
 * ({@link pageFileOpener}: no symlink followed anywhere on the way). The
 * files neither found nor refused are left to ripgrep (binary, large, a
 * path that is not valid UTF-8). Nothing is found unless the query is a
 * plain literal searched on this machine.
 */
export async function firstLinesInProcess(directory: string, query: GrepQuery, files: readonly PageFile[]): Promise<FirstLinesFound> {
  const found: FirstLinesFound = { lines: new Map(), refused: new Set() };
  const literal = query.runner || query.multiline ? undefined : plainLiteral(query.pattern);
  // Decoded text holds U+FFFD for every byte that is not UTF-8, which ripgrep's U+FFFD does not match.
  if (literal === undefined || (query.ignoreCase && literal.includes("\uFFFD"))) return found;
  // Case-insensitive: Unicode simple case folding, as ripgrep's (K matches the Kelvin sign).
  const regex = query.ignoreCase ? new RegExp(escapeRegExp(literal), "iu") : undefined;
  // An ASCII literal is found in the bytes in both cases, without decoding them, unless they hold a character folding to one of its letters.
  const asciiFinder = query.ignoreCase ? createLiteralFinder(literal, true) : undefined;
  const needle = Buffer.from(literal, "utf8");
  const opener = pageFileOpener(directory);
  const scratch = { buffer: Buffer.allocUnsafe(FIRST_READ_BYTES), bytesRead: 0 };
  /** The first matching line in `bytes` (a file's first bytes, or all of them). */
  const search = (bytes: Buffer): number | undefined => {
    if (asciiFinder && !asciiFinder.foldsBeyondAscii(bytes)) {
      const at = asciiFinder.find(bytes, true)[0];
      return at === undefined ? undefined : lineAt(bytes, at);
    }
    if (regex) {
      const text = bytes.toString("utf8");
      const match = regex.exec(text);
      return match ? textLineAt(text, match.index) : undefined;
    }
    const at = bytes.indexOf(needle);
    return at === -1 ? undefined : lineAt(bytes, at);
  };
  try {
    for (let index = 0; index < files.length; index += 1) {
      if ((index % FILES_PER_SLICE === 0 && index > 0) || scratch.bytesRead >= BYTES_PER_SLICE) {
        scratch.bytesRead = 0;
        await new Promise((resolve) => setImmediate(resolve));
        if (query.signal?.aborted) throw query.signal.reason ?? new Error("aborted");
      }
      const file = files[index]!;
      // A name that is not valid UTF-8 was printed with U+FFFD: that path names another file, or none.
      if (file.path.includes("\uFFFD")) continue;
      const opened = opener.open(file.path);
      if (!opened) {
        found.refused.add(file.path);
        continue;
      }
      let line: number | undefined;
      try {
        line = firstLineOf(opened, scratch, search);
      } finally {
        closeSync(opened.fd);
      }
      if (line !== undefined) found.lines.set(file.path, line);
    }
  } finally {
    opener.close();
  }
  return found;
}
