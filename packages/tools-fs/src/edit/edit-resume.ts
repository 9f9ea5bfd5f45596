/**
 * Edit's `resume`: for an Edit that started before a crash and has no
 * recorded outcome, the file tells whether it happened. `old_string` still
 * matched (as Edit matches it) and not overlapping a `new_string`: it did
 * not happen, run it. `old_string` gone and `new_string` there: it did,
 * answer as Edit would without writing. Anything else (new_string contains
 * old_string, neither is there, old_string there after a deletion (the
 * joined text can read as old_string again), the path cannot be read): unknown.
 * The multi-edit form is decided in multi-edit-resume.ts.
 */
import type { ToolContext } from "@agent-tools/core";
import type { ToolResumeDecision } from "@agent-tools/core/durable";
import { readForResume, recordResumed } from "../shared/resume-read.js";
import { preview } from "../shared/text-preview.js";
import { type EditArguments, type EditForm, editFormOf } from "./edit-form.js";
import { findEditMatches } from "./edit-match.js";
import type { EditInput } from "./edit-plan.js";
import type { EditDetails } from "./edit-result.js";
import { resumeMultiEdit } from "./multi-edit-resume.js";
import { EDIT_RESUME_MAX_BYTES, type EditResumeParts, overlapsAny, unknownEdit } from "./resume-checks.js";

export type { EditResumeParts };

/** Decides an interrupted Edit (see the module comment). */
export async function resumeEdit(
  input: EditArguments & { path: string },
  context: ToolContext,
  parts: EditResumeParts,
): Promise<ToolResumeDecision<EditDetails>> {
  let form: EditForm;
  try {
    form = editFormOf(input);
  } catch {
    // Edit refuses these arguments before touching anything: running it again answers the same.
    return { action: "run" };
  }
  if (form.kind === "multi") return resumeMultiEdit(input.path, form.edits, context, parts);
  return resumeSingleEdit(input.path, form.edit, context, parts);
}

async function resumeSingleEdit(path: string, input: EditInput, context: ToolContext, parts: EditResumeParts): Promise<ToolResumeDecision<EditDetails>> {
  try {
    const found = await readForResume({ toolName: "Edit", intent: "edit", path, context, ...parts, maxBytes: EDIT_RESUME_MAX_BYTES });
    // Edit never creates a file: running again answers not_found and changes nothing.
    if (!found.exists) return { action: "run" };
    if ("oversize" in found)
      return unknownEdit(path, `the file is ${found.oversize} bytes, more than the ${EDIT_RESUME_MAX_BYTES} the check before running again reads`);
    const newBytes = Buffer.from(input.new_string, "utf8");
    if (findEditMatches(newBytes, input.old_string, input.new_string) !== null) {
      return unknownEdit(path, "new_string contains old_string, so the file cannot tell whether the edit was applied");
    }
    const oldFound = findEditMatches(found.bytes, input.old_string, input.new_string);
    const oldMatches = oldFound?.matches ?? [];
    if (oldMatches.length > 0) {
      // Only an exact match is the edit still to do: a looser one can be another place that reads like old_string once the
      // edit applied ("x\n" replaced, "x \n" matched ignoring trailing whitespace: running again changed that line too).
      if (oldFound!.strategy !== "exact")
        return unknownEdit(path, `old_string matches the file only by the ${oldFound!.strategy} pass, which an applied edit can leave elsewhere`);
      // A deletion joins the text around it, which can read as old_string again ("aabb" less "ab" is "ab").
      if (newBytes.length === 0) return unknownEdit(path, "old_string is in the file, but deleting it can leave text that reads as old_string again");
      if (overlapsAny(found.bytes, newBytes, oldMatches)) {
        return unknownEdit(path, "old_string is in the file, but overlapping a new_string the edit may have written");
      }
      return { action: "run" };
    }
    if (newBytes.length > 0 && !found.bytes.includes(newBytes)) {
      return unknownEdit(path, "neither old_string nor new_string is in the file now: it changed since, or the edit was applied with a tolerant match");
    }
    recordResumed(parts.environment, found);
    const display = found.resolved.displayPath;
    const details: EditDetails = {
      kind: "edit",
      path: display,
      absolutePath: found.resolved.absolutePath,
      replacements: 0,
      replaceAll: input.replace_all,
      matchStrategy: "exact",
      expectedReplacements: input.expected_replacements ?? null,
      mtimeMs: found.version.mtimeMs,
      contentHash: found.version.contentHash,
      totalLines: found.version.totalLines,
      oldPreview: preview(input.old_string),
      newPreview: preview(input.new_string),
      autoRead: false,
    };
    const text = [
      `Edit: ${display}`,
      "already applied: this Edit was interrupted after it wrote; old_string is no longer in the file and new_string is, so nothing was changed again",
      `replaceAll=${input.replace_all}`,
    ].join("\n");
    return { action: "done", output: { content: text, details } };
  } catch (error) {
    return unknownEdit(path, `Edit could not check ${path} before running again: ${error instanceof Error ? error.message : String(error)}`);
  }
}
