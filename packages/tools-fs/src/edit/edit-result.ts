/** Edit's answer for a committed edit: the same on the local disk and on a workspace. */
import type { ResolvedPath } from "@agent-tools/core";
import type { EditDiagnosticsDetails } from "@agent-tools/core/diagnostics";
import type { PendingHash } from "../fast-io/hash-worker.js";
import { preview } from "../shared/text-preview.js";
import type { MatchStrategy } from "./edit-match.js";
import type { EditItem } from "./edit-form.js";
import type { EditInput, PlannedEdit } from "./edit-plan.js";
import type { PlannedMultiEdit } from "./multi-edit-plan.js";

/** Details of an Edit result. */
export interface EditDetails {
  kind: "edit";
  path: string;
  absolutePath: string;
  replacements: number;
  replaceAll: boolean;
  matchStrategy: MatchStrategy;
  expectedReplacements: number | null;
  mtimeMs: number;
  /**
   * FNV-1a 64 of the new content (16 hex characters). Absent when the content
   * was above `inlineHashLimitBytes` and is hashed off the main thread after
   * the write: the file state records it when it arrives.
   */
  contentHash?: string;
  totalLines: number;
  oldPreview: string;
  newPreview: string;
  autoRead: boolean;
  /** The multi-edit form only: what each edit did, in order (`replacements` above is their total, `matchStrategy` the first's). */
  edits?: Array<{ replacements: number; matchStrategy: MatchStrategy }>;
  /** What the change introduced, when a diagnostics provider (a language server plugin) answered. */
  diagnostics?: EditDiagnosticsDetails;
}

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

/**
 * The tool result of a committed multi-edit: the single form's details
 * (`replacements` the total, `matchStrategy` and the previews the first
 * edit's) plus `edits`, one entry per edit in order.
 */
export function multiEditResult(
  call: { edits: readonly EditItem[]; resolved: ResolvedPath },
  plan: PlannedMultiEdit,
  version: { mtimeMs: number; contentHash: string; totalLines: number },
  pendingHash?: PendingHash,
) {
  const { edits, resolved } = call;
  const display = resolved.displayPath;
  const lines = [`Edit: ${display}`, `edits=${edits.length}`, `replacements=${plan.replacements}`];
  if (plan.edits.some((edit) => edit.replacements > 1)) {
    lines.push(`replacementsPerEdit=${plan.edits.map((edit) => edit.replacements).join(",")}`);
  }
  plan.edits.forEach((edit, index) => {
    if (NOTES[edit.matchStrategy]) lines.push(`Edit ${index + 1}: ${NOTES[edit.matchStrategy]}`);
  });
  if (plan.autoRead) lines.push("autoRead=full");
  const first = edits[0]!;
  return {
    content: lines.join("\n"),
    details: {
      kind: "edit" as const,
      path: display,
      absolutePath: resolved.absolutePath,
      replacements: plan.replacements,
      replaceAll: false,
      matchStrategy: plan.strategy,
      expectedReplacements: null,
      mtimeMs: version.mtimeMs,
      ...(pendingHash ? {} : { contentHash: version.contentHash }),
      totalLines: version.totalLines,
      oldPreview: preview(first.old_string),
      newPreview: preview(first.new_string),
      autoRead: plan.autoRead,
      edits: plan.edits.map((edit) => ({ replacements: edit.replacements, matchStrategy: edit.matchStrategy })),
    },
  };
}
