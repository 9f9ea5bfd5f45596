/**
 * The first matching line of each file on a files page of a plain literal,
 * found after one `--count` run over the tree. ripgrep has no output that
 * gives a file's matching lines and its first one at `--count`'s cost
 * (every match printed as its line number costs up to 1.3x `rg -l` on a
 * common word), and a second ripgrep run over the page's files costs a
 * process start (10-20% of `rg -l` on a tree of 3,000 files). A plain
 * literal ({@link plainLiteral}) means the same here as in ripgrep, so its
 * first occurrence in each of the page's files is found in this process;
 * a file it is not found in (binary, large, unreadable, vanished) is left
 * to one ripgrep run with `--max-count 1` over those files only.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import type { GrepQuery } from "./grep-ripgrep.js";

/** Largest file searched here (a larger one goes to ripgrep, which stops at the first match). */
const IN_PROCESS_MAX_BYTES = 1024 * 1024;

/** Files searched between two yields to the event loop (abort checks). */
const FILES_PER_SLICE = 64;

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

/** Opened without waiting (a FIFO swapped in since ripgrep's run) and without following a symlink at the leaf. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Reads a regular file of at most `maxBytes`; undefined when it is larger, not a regular file, a symlink, or unreadable. */
function readSmallFile(file: string, maxBytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    const buffer = Buffer.allocUnsafe(stat.size);
    let offset = 0;
    while (offset < stat.size) {
      const read = readSync(fd, buffer, offset, stat.size - offset, offset);
      if (read === 0) break;
      offset += read;
    }
    return offset === stat.size ? buffer : buffer.subarray(0, offset);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
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

/**
 * First matching lines of `files` found in this process (see the module
 * comment): a map from path to line for the files whose first match was
 * found here; the others are left to ripgrep. Empty unless the query is a
 * plain literal searched on this machine.
 */
export async function firstLinesInProcess(directory: string, query: GrepQuery, files: readonly PageFile[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const literal = query.runner || query.multiline ? undefined : plainLiteral(query.pattern);
  if (literal === undefined) return found;
  // Case-insensitive: Unicode simple case folding, as ripgrep's (K matches the Kelvin sign).
  const regex = query.ignoreCase ? new RegExp(escapeRegExp(literal), "iu") : undefined;
  const needle = Buffer.from(literal, "utf8");
  for (let index = 0; index < files.length; index += 1) {
    if (index % FILES_PER_SLICE === 0 && index > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (query.signal?.aborted) throw query.signal.reason ?? new Error("aborted");
    }
    const file = files[index]!;
    const bytes = readSmallFile(path.join(directory, file.path), IN_PROCESS_MAX_BYTES);
    if (!bytes || bytes.indexOf(0) !== -1) continue; // ripgrep decides on binary files
    if (regex) {
      const text = bytes.toString("utf8");
      const match = regex.exec(text);
      if (match) found.set(file.path, textLineAt(text, match.index));
    } else {
      const at = bytes.indexOf(needle);
      if (at !== -1) found.set(file.path, lineAt(bytes, at));
    }
  }
  return found;
}
