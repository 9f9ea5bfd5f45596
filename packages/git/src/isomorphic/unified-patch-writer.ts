import { structuredPatch } from "diff";
import { formatBinaryPatch } from "./git-binary-patch.js";
import { quotePatchPath } from "@agent-tools/core/internal";

/** One changed file between a base tree and the work tree. */
export interface FileChange {
  /** Repository-relative path. */
  path: string;
  /** Null when the file is new. */
  old: { oid: string; mode: string; content: Uint8Array } | null;
  /** Null when the file was deleted. */
  new: { oid: string; mode: string; content: Uint8Array } | null;
}

const NULL_ID = "0000000000000000000000000000000000000000";
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** True when git would call the content binary (a NUL in the first 8000 bytes), or it is not UTF-8 (so the patch stays a lossless string). */
export function isBinaryContent(content: Uint8Array): boolean {
  if (content.subarray(0, 8000).includes(0)) return true;
  try {
    utf8.decode(content);
    return false;
  } catch {
    return true;
  }
}

function range(start: number, count: number): string {
  const first = count === 0 ? start - 1 : start;
  return count === 1 ? `${first}` : `${first},${count}`;
}

/** Git's default hunk-header context: the last line before the hunk that starts with a letter, `_` or `$` (at most 80 bytes, trailing space trimmed). */
function functionContext(oldLines: readonly string[], hunkStartIndex: number): string {
  for (let index = hunkStartIndex - 1; index >= 0; index--) {
    const line = oldLines[index]!;
    if (/^[A-Za-z_$]/.test(line)) {
      const bytes = Buffer.from(line, "utf8").subarray(0, 80);
      return ` ${bytes
        .toString("utf8")
        .replace(/\uFFFD$/, "")
        .replace(/\s+$/, "")}`;
    }
  }
  return "";
}

function textHunks(oldText: string, newText: string): string {
  const patch = structuredPatch("a", "b", oldText, newText, "", "", { context: 3 });
  const oldLines = oldText.split("\n");
  let out = "";
  for (const hunk of patch.hunks) {
    const context = hunk.oldLines === 0 && hunk.oldStart <= 1 ? "" : functionContext(oldLines, hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1);
    out += `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@${context}\n`;
    for (const line of hunk.lines) out += `${line}\n`;
  }
  return out;
}

/** Formats one file change the way `git diff --binary --full-index --no-renames` does. */
export function formatFileChange(change: FileChange): string {
  const quotedA = quotePatchPath(`a/${change.path}`);
  const quotedB = quotePatchPath(`b/${change.path}`);
  let out = `diff --git ${quotedA} ${quotedB}\n`;
  const oldContent = change.old?.content ?? new Uint8Array();
  const newContent = change.new?.content ?? new Uint8Array();
  const contentChanged = (change.old?.oid ?? NULL_ID) !== (change.new?.oid ?? NULL_ID);
  if (!change.old) out += `new file mode ${change.new!.mode}\n`;
  else if (!change.new) out += `deleted file mode ${change.old.mode}\n`;
  else if (change.old.mode !== change.new.mode) out += `old mode ${change.old.mode}\nnew mode ${change.new.mode}\n`;
  if (!contentChanged) return out;
  const sameMode = change.old && change.new && change.old.mode === change.new.mode ? ` ${change.old.mode}` : "";
  out += `index ${change.old?.oid ?? NULL_ID}..${change.new?.oid ?? NULL_ID}${sameMode}\n`;
  if (isBinaryContent(oldContent) || isBinaryContent(newContent)) return out + formatBinaryPatch(oldContent, newContent);
  if (oldContent.length === 0 && newContent.length === 0) return out;
  // Like git, a tab ends a file name that contains a space (for GNU patch).
  const tab = change.path.includes(" ") ? "\t" : "";
  out += `--- ${change.old ? `${quotedA}${tab}` : "/dev/null"}\n+++ ${change.new ? `${quotedB}${tab}` : "/dev/null"}\n`;
  return out + textHunks(utf8.decode(oldContent), utf8.decode(newContent));
}
