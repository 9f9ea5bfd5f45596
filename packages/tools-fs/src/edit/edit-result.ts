/** Edit's answer for a committed edit: the same on the local disk and on a workspace. */
import type { ResolvedPath } from "@agent-tools/core";
import type { PendingHash } from "../fast-io/hash-worker.js";
import { preview } from "../shared/text-preview.js";
import type { MatchStrategy } from "./edit-match.js";
import type { EditInput, PlannedEdit } from "./edit-plan.js";

const NOTES: Record<MatchStrategy, string> = {
  exact: "",
  "line-endings": "Note: old_string matched after normalising line endings (CRLF/LF, BOM); the file's original line-ending style was preserved.",
  "trailing-whitespace": "Note: old_string matched ignoring per-line trailing whitespace; the replaced lines were written as given in new_string.",
  indentation: "Note: old_string matched with a uniform indentation shift; the replacement was re-indented to the file's actual indentation.",
};

/** The tool result of a committed edit. */
export function editResult(
  call: { input: EditInput; resolved: ResolvedPath },
  plan: PlannedEdit,
  version: { mtimeMs: number; contentHash: string; totalLines: number },
  pendingHash?: PendingHash,
) {
  const { input, resolved } = call;
  const display = resolved.displayPath;
  const lines = [`Edit: ${display}`, `replacements=${plan.replacements}`, `replaceAll=${input.replace_all}`];
  if (NOTES[plan.strategy]) lines.push(NOTES[plan.strategy]);
  if (plan.autoRead) lines.push("autoRead=full");
  return {
    content: lines.join("\n"),
    details: {
      kind: "edit" as const,
      path: display,
      absolutePath: resolved.absolutePath,
      replacements: plan.replacements,
      replaceAll: input.replace_all,
      matchStrategy: plan.strategy,
      expectedReplacements: input.expected_replacements ?? null,
      mtimeMs: version.mtimeMs,
      ...(pendingHash ? {} : { contentHash: version.contentHash }),
      totalLines: version.totalLines,
      oldPreview: preview(input.old_string),
      newPreview: preview(input.new_string),
      autoRead: plan.autoRead,
    },
  };
}
