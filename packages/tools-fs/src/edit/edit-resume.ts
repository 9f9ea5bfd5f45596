/**
 * Edit's `resume`: for an Edit that started before a crash and has no
 * recorded outcome, the file tells whether it happened. `old_string` still
 * matched (as Edit matches it) and not overlapping a `new_string`: it did
 * not happen, run it. `old_string` gone and `new_string` there: it did,
 * answer as Edit would without writing. Anything else (new_string contains
 * old_string, neither is there, old_string there after a deletion (the
 * joined text can read as old_string again), the path cannot be read): unknown.
 */
import type { ToolContext } from "@agent-tools/core";
import type { ToolResumeDecision } from "@agent-tools/core/durable";
import type { FileEngine } from "../file-engine/file-engine.js";
import { readForResume, recordResumed } from "../shared/resume-read.js";
import { preview } from "../shared/text-preview.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { findEditMatches } from "./edit-match.js";
import type { EditInput } from "./edit-plan.js";
import type { editResult } from "./edit-result.js";

/** The largest file an interrupted Edit's check reads (64 MiB); a larger one is reported unknown, unread. */
const EDIT_RESUME_MAX_BYTES = 64 * 1024 * 1024;

/** The details of an Edit result (`EditDetails`). */
type EditDetails = ReturnType<typeof editResult>["details"];

/** What Edit's resume needs of its bundle. */
export interface EditResumeParts {
  readonly environment: FsToolEnvironment;
  readonly engine: FileEngine;
}

/** Decides an interrupted Edit (see the module comment). */
export async function resumeEdit(input: EditInput & { path: string }, context: ToolContext, parts: EditResumeParts): Promise<ToolResumeDecision<EditDetails>> {
  // Edit refuses an empty old_string before touching anything: running it again answers the same.
  if (input.old_string === "") return { action: "run" };
  try {
    const found = await readForResume({ toolName: "Edit", intent: "edit", path: input.path, context, ...parts, maxBytes: EDIT_RESUME_MAX_BYTES });
    // Edit never creates a file: running again answers not_found and changes nothing.
    if (!found.exists) return { action: "run" };
    if ("oversize" in found)
      return unknown(input, `the file is ${found.oversize} bytes, more than the ${EDIT_RESUME_MAX_BYTES} the check before running again reads`);
    const newBytes = Buffer.from(input.new_string, "utf8");
    if (findEditMatches(newBytes, input.old_string, input.new_string) !== null) {
      return unknown(input, "new_string contains old_string, so the file cannot tell whether the edit was applied");
    }
    const oldMatches = findEditMatches(found.bytes, input.old_string, input.new_string)?.matches ?? [];
    if (oldMatches.length > 0) {
      // A deletion joins the text around it, which can read as old_string again ("aabb" less "ab" is "ab").
      if (newBytes.length === 0) return unknown(input, "old_string is in the file, but deleting it can leave text that reads as old_string again");
      if (overlapsAny(found.bytes, newBytes, oldMatches)) {
        return unknown(input, "old_string is in the file, but overlapping a new_string the edit may have written");
      }
      return { action: "run" };
    }
    if (newBytes.length > 0 && !found.bytes.includes(newBytes)) {
      return unknown(input, "neither old_string nor new_string is in the file now: it changed since, or the edit was applied with a tolerant match");
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
    return unknown(input, `Edit could not check ${input.path} before running again: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function unknown(input: { path: string }, note: string): ToolResumeDecision<EditDetails> {
  return { action: "unknown", note: `${input.path}: ${note}` };
}

/** True when an occurrence of `needle` in `content` overlaps one of `matches` (an edit's result can read as old_string again). */
function overlapsAny(content: Buffer, needle: Buffer, matches: readonly { start: number; end: number }[]): boolean {
  for (let index = content.indexOf(needle); index !== -1; index = content.indexOf(needle, index + 1)) {
    const end = index + needle.length;
    if (matches.some((match) => match.start < end && index < match.end)) return true;
  }
  return false;
}
