/**
 * What a worktree's patch does to each path, read from the headers and hunks
 * of `git diff --binary` (full blob ids, no renames): the path's state at the
 * commit the worktree started from and in the worktree (missing, file with
 * its executable bit, symlink, submodule) with the blob ids, and for a text
 * change its hunks. The apply decides per path from these and never runs
 * `git apply` on the parent.
 */
import { createHash } from "node:crypto";
import type { PatchSection } from "./git-subagent-worktree-patch.js";

/** What a path holds on one side of the patch. */
export interface PatchSide {
  readonly kind: "missing" | "file" | "link" | "submodule" | "unknown";
  readonly executable: boolean;
  /** The blob id (40 or 64 hex digits); absent when the patch names none (a mode-only change). */
  readonly oid?: string;
}

/** One line of a hunk; `text` is in latin1 form (one character per byte), its newline included unless the file ends without one. */
export interface HunkLine {
  readonly kind: " " | "-" | "+";
  readonly text: string;
}

/** One `@@ -oldStart,oldCount +newStart,newCount @@` hunk. */
export interface TextHunk {
  readonly oldStart: number;
  readonly oldCount: number;
  readonly newStart: number;
  readonly newCount: number;
  readonly lines: readonly HunkLine[];
}

/** The change of one repository-relative path. */
export interface FileChange {
  readonly path: string;
  readonly before: PatchSide;
  readonly after: PatchSide;
  /**
   * The text hunks that rebuild the `before` content when undone: from the
   * `after` content, or from nothing when `fromNothing` (a deletion, or a
   * type change whose first section deletes the old entry). Null for binary
   * patches and unreadable sections.
   */
  readonly hunks: readonly TextHunk[] | null;
  readonly fromNothing: boolean;
}

const ZERO_OID = /^0+$/;
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function sideOf(mode: string | undefined, oid: string | undefined): PatchSide {
  const known = oid === undefined || ZERO_OID.test(oid) ? {} : { oid };
  switch (mode) {
    case "100644":
      return { kind: "file", executable: false, ...known };
    case "100755":
      return { kind: "file", executable: true, ...known };
    case "120000":
      return { kind: "link", executable: false, ...known };
    case "160000":
      return { kind: "submodule", executable: false, ...known };
    default:
      return { kind: "unknown", executable: false, ...known };
  }
}

const MISSING: PatchSide = { kind: "missing", executable: false };

/** Reads a section's hunks; null when a line is not hunk syntax (nothing is guessed). */
function readHunks(lines: readonly string[]): TextHunk[] | null {
  const hunks: { oldStart: number; oldCount: number; newStart: number; newCount: number; lines: HunkLine[] }[] = [];
  for (const line of lines) {
    const header = HUNK_HEADER.exec(line);
    const current = hunks.at(-1);
    if (header !== null) {
      hunks.push({
        oldStart: Number(header[1]),
        oldCount: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newCount: header[4] === undefined ? 1 : Number(header[4]),
        lines: [],
      });
    } else if (current !== undefined && (line[0] === " " || line[0] === "-" || line[0] === "+")) {
      // The patch is UTF-8 text; files are compared byte for byte, so a line becomes one character per byte.
      current.lines.push({ kind: line[0], text: Buffer.from(`${line.slice(1)}\n`, "utf8").toString("latin1") });
    } else if (current !== undefined && line.startsWith("\\")) {
      const last = current.lines.at(-1);
      if (last === undefined) return null;
      current.lines[current.lines.length - 1] = { kind: last.kind, text: last.text.slice(0, -1) };
    } else return null;
  }
  return hunks;
}

/** The change one section describes. */
function readSection(section: PatchSection): FileChange {
  const lines = section.text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const header = new Map<string, string>();
  let oldOid: string | undefined;
  let newOid: string | undefined;
  let indexMode: string | undefined;
  let body = lines.length;
  for (let at = 1; at < lines.length; at += 1) {
    const line = lines[at]!;
    if (/^(?:--- |\+\+\+ |@@ |GIT binary patch|Binary files )/.test(line)) {
      body = at;
      break;
    }
    const index = /^index ([0-9a-f]+)\.\.([0-9a-f]+)(?: (\d+))?$/.exec(line);
    if (index !== null) [, oldOid, newOid, indexMode] = index;
    const mode = /^(old mode|new mode|deleted file mode|new file mode) (\d+)$/.exec(line);
    if (mode !== null) header.set(mode[1]!, mode[2]!);
  }
  const before = header.has("new file mode") ? MISSING : sideOf(header.get("old mode") ?? header.get("deleted file mode") ?? indexMode, oldOid);
  const after = header.has("deleted file mode") ? MISSING : sideOf(header.get("new mode") ?? header.get("new file mode") ?? indexMode, newOid);
  const rest = lines.slice(body).filter((line) => !line.startsWith("--- ") && !line.startsWith("+++ "));
  const binary = rest.some((line) => line === "GIT binary patch" || line.startsWith("Binary files "));
  return { path: section.path, before, after, hunks: binary ? null : readHunks(rest), fromNothing: after.kind === "missing" };
}

/**
 * The change of every path of the sections, in patch order. A path with two
 * sections (a type change: the file deleted, the symlink added) becomes one
 * change from the first section's `before` to the last one's `after`.
 */
export function readFileChanges(sections: readonly PatchSection[]): FileChange[] {
  const byPath = new Map<string, FileChange>();
  for (const section of sections) {
    const change = readSection(section);
    const earlier = byPath.get(change.path);
    // The first section (the old entry deleted) rebuilds the old content from nothing.
    byPath.set(
      change.path,
      earlier === undefined ? change : { path: change.path, before: earlier.before, after: change.after, hunks: earlier.hunks, fromNothing: true },
    );
  }
  return [...byPath.values()];
}

function blobId(content: Uint8Array, algorithm: "sha1" | "sha256"): string {
  return createHash(algorithm).update(`blob ${content.length}\0`).update(content).digest("hex");
}

/**
 * True when `oid` (a blob id as the patch shows it: in full for binary
 * files, abbreviated to 7 or more hex digits for text) names `content`, in
 * SHA-1 or, for SHA-256 repositories, SHA-256.
 */
export function blobIdMatches(content: Uint8Array, oid: string): boolean {
  if (oid.length === 64) return blobId(content, "sha256") === oid;
  if (blobId(content, "sha1").startsWith(oid)) return true;
  return oid.length < 40 && blobId(content, "sha256").startsWith(oid);
}

/**
 * The `before` content of a text change, rebuilt exactly by undoing its
 * hunks on the `after` content (`afterContent`; nothing when the change
 * says so) and checked against the patch's blob id; undefined for binary
 * changes, a missing `before`, or when the content does not hold the hunks.
 */
export function baseContent(change: FileChange, afterContent: Buffer | undefined): Buffer | undefined {
  if (change.before.kind === "missing" || change.hunks === null) return undefined;
  const source = change.fromNothing ? "" : afterContent?.toString("latin1");
  if (source === undefined) return undefined;
  const lines = undoHunks(splitLines(source), change.hunks);
  if (lines === undefined) return undefined;
  const bytes = Buffer.from(lines.join(""), "latin1");
  return change.before.oid === undefined || blobIdMatches(bytes, change.before.oid) ? bytes : undefined;
}

/** Splits latin1 text into lines, each with its newline (the last one may have none). */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * The `before` side of a text change rebuilt from its `after` side (latin1
 * lines): the hunks undone at their exact positions. Undefined when `after`
 * does not hold the hunks' new lines where they say.
 */
export function undoHunks(after: readonly string[], hunks: readonly TextHunk[]): string[] | undefined {
  const out: string[] = [];
  let at = 0;
  for (const hunk of hunks) {
    // An empty new range names the line before it.
    const start = hunk.newCount === 0 ? hunk.newStart : hunk.newStart - 1;
    if (start < at || start > after.length) return undefined;
    out.push(...after.slice(at, start));
    at = start;
    for (const line of hunk.lines) {
      if (line.kind === "-") {
        out.push(line.text);
        continue;
      }
      if (after[at] !== line.text) return undefined;
      if (line.kind === " ") out.push(line.text);
      at += 1;
    }
  }
  out.push(...after.slice(at));
  return out;
}
