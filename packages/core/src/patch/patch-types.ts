/**
 * The V4A patch format as data: what `parseV4APatch` returns and every
 * consumer of a patch (the ApplyPatch tool, the permission rules, the
 * provider adapters) reads. A leaf module.
 */

/** One line of a hunk: unchanged context, removed or added; `text` without its prefix character and line terminator. */
export interface PatchLine {
  readonly kind: "context" | "remove" | "add";
  readonly text: string;
}

/** One `@@` section of an `*** Update File:` operation. */
export interface PatchHunk {
  /**
   * The `@@` anchors before the hunk's lines, outermost first (`@@ class A`
   * then `@@ def f`): each names a line the hunk follows. Empty for a bare
   * `@@` or a first hunk without one.
   */
  readonly anchors: readonly string[];
  /** The hunk's lines in order. A hunk has at least one `remove` or `add` line. */
  readonly lines: readonly PatchLine[];
  /** `*** End of File` closed the hunk: its old lines end the file. */
  readonly endOfFile: boolean;
  /** 1-based line of the patch text where the hunk starts (its first `@@` or first line), for messages. */
  readonly patchLine: number;
}

/** `*** Add File: <path>` and its `+` lines. */
export interface PatchAddFile {
  readonly kind: "add";
  readonly path: string;
  /** The new file's lines without the `+`; the file is written with each line followed by a newline. */
  readonly lines: readonly string[];
  readonly patchLine: number;
}

/** `*** Delete File: <path>`. */
export interface PatchDeleteFile {
  readonly kind: "delete";
  readonly path: string;
  readonly patchLine: number;
}

/** `*** Update File: <path>`, an optional `*** Move to: <path>` and its hunks. */
export interface PatchUpdateFile {
  readonly kind: "update";
  readonly path: string;
  /** The path the updated file moves to, when `*** Move to:` is given. */
  readonly moveTo?: string | undefined;
  /** At least one hunk, unless the operation only moves the file. */
  readonly hunks: readonly PatchHunk[];
  readonly patchLine: number;
}

/** One file operation of a patch. */
export type PatchOperation = PatchAddFile | PatchDeleteFile | PatchUpdateFile;

/** A parsed patch: its operations in the order written. */
export interface ParsedPatch {
  readonly operations: readonly PatchOperation[];
}

/** A path a patch touches and how (a move touches its source as `delete` and its destination as `add`). */
export interface PatchTarget {
  readonly path: string;
  readonly kind: "add" | "delete" | "update";
}
