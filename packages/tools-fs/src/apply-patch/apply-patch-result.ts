/**
 * ApplyPatch's answer: one line per file (its operation and, per hunk, how
 * it was located and where), notes for the tolerant strategies, and the
 * details with a unified diff of every file.
 */
import type { EditDiagnosticsDetails } from "@agent-tools/core/diagnostics";
import { formatUnifiedDiff } from "../patch/unified-diff.js";
import type { PatchMatchStrategy, PatchedHunk } from "../patch/patch-match-types.js";
import type { CommittedChange } from "./commit-patch.js";

/** One file of an ApplyPatch result (public as `ApplyPatchDetails["files"][number]`). */
export interface ApplyPatchFileDetails {
  /** The path as the patch named it. */
  path: string;
  absolutePath: string;
  operation: "add" | "delete" | "update" | "move";
  /** The destination of a move, as the patch named it. */
  movedTo?: string;
  /** Each hunk of an update: how it was located and the 1-based line of the original file where it applied. */
  hunks: PatchedHunk[];
  /** FNV-1a 64 of the new content (absent for a deletion). */
  contentHash?: string;
  /** Line count of the new content (absent for a deletion). */
  totalLines?: number;
}

/** Details of an ApplyPatch result. */
export interface ApplyPatchDetails {
  kind: "apply_patch";
  /** Every file the patch touched, in patch order. */
  files: ApplyPatchFileDetails[];
  /** A unified diff of every file (`--- a/<path>` / `+++ b/<path>`). */
  diff: string;
  /** What the change introduced, when a diagnostics provider (a language server plugin) answered. */
  diagnostics?: EditDiagnosticsDetails;
}

const NOTES: Partial<Record<PatchMatchStrategy, string>> = {
  "line-endings": "line-endings: matched ignoring CRLF/LF; the file's line endings were kept.",
  "trailing-whitespace": "trailing-whitespace: matched ignoring trailing spaces; context lines kept the file's bytes.",
  indentation: "indentation: matched with an indentation shift; the added lines were re-indented to the file's indentation.",
  "unicode-punctuation": "unicode-punctuation: matched treating curly quotes, dashes and Unicode spaces as ASCII; context lines kept the file's bytes.",
  "stale-context": "stale-context: one context line matched nothing and was skipped (the place was unique); Read the file if unsure.",
  "anchor-ignored": "anchor-ignored: an @@ anchor matched nothing and was dropped (the place was unique); Read the file if unsure.",
};

const EMPTY = Buffer.alloc(0);

/**
 * The most bytes (old and new content together) of one file whose diff is
 * computed, and the most diff text one answer carries: a line diff of large
 * files costs seconds of the event loop (deleting a 13 MB file: 3.4 s), and
 * `details` travels to every UI and trace.
 */
const DIFF_MAX_FILE_BYTES = 256 * 1024;
const DIFF_MAX_TOTAL_CHARS = 1024 * 1024;

/** The diff of one file, or a line saying why it is left out. */
function fileDiff(display: string, before: Buffer, after: readonly Buffer[], room: number): string {
  const afterSize = after.reduce((sum, piece) => sum + piece.length, 0);
  if (before.length + afterSize > DIFF_MAX_FILE_BYTES) {
    return `diff of ${display} left out: ${before.length} -> ${afterSize} bytes, more than the ${DIFF_MAX_FILE_BYTES} a diff covers\n`;
  }
  const diff = formatUnifiedDiff(display, before, Buffer.concat(after));
  return diff.length > room ? `diff of ${display} left out: the answer's diffs reached ${DIFF_MAX_TOTAL_CHARS} characters\n` : diff;
}

function hunkWords(hunks: readonly PatchedHunk[]): string {
  return hunks.map((hunk) => `hunk ${hunk.hunk} ${hunk.matchStrategy} at line ${hunk.startLine}`).join("; ");
}

/** The text and details of a committed patch. */
export function applyPatchResult(committed: readonly CommittedChange[]) {
  const lines = [`ApplyPatch: ${committed.length} file${committed.length === 1 ? "" : "s"} changed`];
  const files: ApplyPatchFileDetails[] = [];
  const diffs: string[] = [];
  let room = DIFF_MAX_TOTAL_CHARS;
  const pushDiff = (display: string, before: Buffer, after: readonly Buffer[]) => {
    const diff = fileDiff(display, before, after, room);
    room = Math.max(0, room - diff.length);
    diffs.push(diff);
  };
  const strategies = new Set<PatchMatchStrategy>();
  let autoRead = false;
  for (const { change, version } of committed) {
    const { resolved } = change.file;
    const display = resolved.displayPath;
    const written = version ? { contentHash: version.contentHash, totalLines: version.totalLines } : {};
    const after = change.kind === "delete" ? [] : change.pieces;
    if (change.kind === "add") {
      lines.push(`A ${display}${change.before ? " (replaced the file you read)" : ""}`);
      files.push({ path: display, absolutePath: resolved.absolutePath, operation: "add", hunks: [], ...written });
      pushDiff(display, change.before ?? EMPTY, after);
    } else if (change.kind === "delete") {
      lines.push(`D ${display}`);
      files.push({ path: display, absolutePath: resolved.absolutePath, operation: "delete", hunks: [] });
      if (change.before === undefined) diffs.push(`diff of ${display} left out: deleted, ${change.file.size} bytes\n`);
      else pushDiff(display, change.before, []);
    } else {
      for (const hunk of change.hunks) strategies.add(hunk.matchStrategy);
      autoRead ||= change.autoRead;
      const hunks = change.hunks.length > 0 ? `: ${hunkWords(change.hunks)}` : "";
      const destination = change.destination?.resolved.displayPath;
      if (destination === undefined) {
        lines.push(`M ${display}${hunks}`);
        files.push({ path: display, absolutePath: resolved.absolutePath, operation: "update", hunks: [...change.hunks], ...written });
        pushDiff(display, change.before, after);
      } else {
        lines.push(`R ${display} -> ${destination}${hunks}`);
        files.push({ path: display, absolutePath: resolved.absolutePath, operation: "move", movedTo: destination, hunks: [...change.hunks], ...written });
        pushDiff(destination, change.before, after);
      }
    }
  }
  for (const strategy of strategies) if (NOTES[strategy]) lines.push(`Note: ${NOTES[strategy]}`);
  if (autoRead) lines.push("autoRead=full");
  const details: ApplyPatchDetails = { kind: "apply_patch", files, diff: diffs.join("") };
  return { content: lines.join("\n"), details };
}
