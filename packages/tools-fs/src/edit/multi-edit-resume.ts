/**
 * The resume of Edit's multi-edit form. A multi-edit writes all of its edits
 * at once or nothing, so the file is either before the call or after it:
 * - done: no edit's old_string matches any more and every non-empty
 *   new_string is in the file (answered as Edit would, without writing);
 * - run: the first edit's old_string still matches and nothing the edits
 *   write could have made it match again (no new_string contains it, no
 *   new_string's occurrence overlaps its match, no edit deletes text, whose
 *   join could read as it);
 * - unknown otherwise (and when the file cannot be read, or is too large).
 */
import type { ToolContext } from "@agent-tools/core";
import type { ToolResumeDecision } from "@agent-tools/core/durable";
import { readForResume, recordResumed } from "../shared/resume-read.js";
import { preview } from "../shared/text-preview.js";
import type { EditItem } from "./edit-form.js";
import { findEditMatches } from "./edit-match.js";
import type { EditDetails } from "./edit-result.js";
import { EDIT_RESUME_MAX_BYTES, type EditResumeParts, overlapsAny, unknownEdit } from "./resume-checks.js";

/** Decides an interrupted multi-edit of `path` (see the module comment). */
export async function resumeMultiEdit(
  path: string,
  edits: readonly EditItem[],
  context: ToolContext,
  parts: EditResumeParts,
): Promise<ToolResumeDecision<EditDetails>> {
  try {
    const found = await readForResume({ toolName: "Edit", intent: "edit", path, context, ...parts, maxBytes: EDIT_RESUME_MAX_BYTES });
    // Edit never creates a file: running again answers not_found and changes nothing.
    if (!found.exists) return { action: "run" };
    if ("oversize" in found)
      return unknownEdit(path, `the file is ${found.oversize} bytes, more than the ${EDIT_RESUME_MAX_BYTES} the check before running again reads`);
    const first = edits[0]!;
    const firstFound = findEditMatches(found.bytes, first.old_string, first.new_string);
    const firstMatches = firstFound?.matches ?? [];
    if (firstMatches.length > 0) {
      // Only an exact match is still to do: a looser one can be another place that reads like it once the edits applied.
      if (firstFound!.strategy !== "exact") {
        return unknownEdit(path, `edit 1's old_string matches the file only by the ${firstFound!.strategy} pass, which applied edits can leave elsewhere`);
      }
      for (const [index, edit] of edits.entries()) {
        const newBytes = Buffer.from(edit.new_string, "utf8");
        const which = `edit ${index + 1}`;
        if (newBytes.length === 0) {
          return unknownEdit(path, `edit 1's old_string is in the file, but ${which} deletes text, whose join can read as it again`);
        }
        if (findEditMatches(newBytes, first.old_string, first.new_string) !== null) {
          return unknownEdit(path, `${which}'s new_string contains edit 1's old_string, so the file cannot tell whether the edits were applied`);
        }
        if (overlapsAny(found.bytes, newBytes, firstMatches)) {
          return unknownEdit(path, `edit 1's old_string is in the file, but overlapping ${which}'s new_string, which the edits may have written`);
        }
      }
      return { action: "run" };
    }
    const stillThere = edits.findIndex((edit) => findEditMatches(found.bytes, edit.old_string, edit.new_string) !== null);
    if (stillThere !== -1) {
      return unknownEdit(path, `edit 1's old_string is gone but edit ${stillThere + 1}'s is in the file: it changed since, or the edits cannot tell`);
    }
    const missing = edits.findIndex((edit) => edit.new_string !== "" && !found.bytes.includes(Buffer.from(edit.new_string, "utf8")));
    if (missing !== -1) {
      return unknownEdit(
        path,
        `edit 1's old_string is gone but edit ${missing + 1}'s new_string is not in the file: it changed since, or the edit was applied with a tolerant match`,
      );
    }
    recordResumed(parts.environment, found);
    const display = found.resolved.displayPath;
    const details: EditDetails = {
      kind: "edit",
      path: display,
      absolutePath: found.resolved.absolutePath,
      replacements: 0,
      replaceAll: false,
      matchStrategy: "exact",
      expectedReplacements: null,
      mtimeMs: found.version.mtimeMs,
      contentHash: found.version.contentHash,
      totalLines: found.version.totalLines,
      oldPreview: preview(first.old_string),
      newPreview: preview(first.new_string),
      autoRead: false,
      edits: edits.map(() => ({ replacements: 0, matchStrategy: "exact" as const })),
    };
    const text = [
      `Edit: ${display}`,
      `already applied: this Edit was interrupted after it wrote; no old_string of its ${edits.length} edits is in the file and every new_string is, so nothing was changed again`,
      `edits=${edits.length}`,
    ].join("\n");
    return { action: "done", output: { content: text, details } };
  } catch (error) {
    return unknownEdit(path, `Edit could not check ${path} before running again: ${error instanceof Error ? error.message : String(error)}`);
  }
}
