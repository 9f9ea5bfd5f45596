/**
 * What Edit's two resume checks (edit-resume.ts for one pair,
 * multi-edit-resume.ts for `edits`) share: a leaf module, so neither imports
 * the other.
 */
import type { ToolResumeDecision } from "@agent-tools/core/durable";
import type { FileEngine } from "../file-engine/file-engine.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import type { EditDetails } from "./edit-result.js";

/** The largest file an interrupted Edit's check reads (64 MiB); a larger one is reported unknown, unread. */
export const EDIT_RESUME_MAX_BYTES = 64 * 1024 * 1024;

/** What Edit's resume needs of its bundle. */
export interface EditResumeParts {
  readonly environment: FsToolEnvironment;
  readonly engine: FileEngine;
}

/** An `unknown` decision whose note starts with the path. */
export function unknownEdit(path: string, note: string): ToolResumeDecision<EditDetails> {
  return { action: "unknown", note: `${path}: ${note}` };
}

/** True when an occurrence of `needle` in `content` overlaps one of `matches` (an edit's result can read as old_string again). */
export function overlapsAny(content: Buffer, needle: Buffer, matches: readonly { start: number; end: number }[]): boolean {
  for (let index = content.indexOf(needle); index !== -1; index = content.indexOf(needle, index + 1)) {
    const end = index + needle.length;
    if (matches.some((match) => match.start < end && index < match.end)) return true;
  }
  return false;
}
