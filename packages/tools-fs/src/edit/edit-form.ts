/**
 * Edit's two forms: one `old_string`/`new_string` pair, or `edits` (several
 * pairs applied in order to one file, all or none). Exactly one form per
 * call; anything else is refused with `invalid_arguments` saying what to send.
 */
import { ToolError } from "@agent-tools/core";
import type { EditInput } from "./edit-plan.js";

/** The most edits one call may carry (the schema's `maxItems` says it too). */
export const MAX_EDITS = 100;

/** One edit of the multi-edit form. */
export interface EditItem {
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

/** Edit's arguments as parsed by its schema (both forms' fields optional). */
export interface EditArguments {
  old_string?: string | undefined;
  new_string?: string | undefined;
  replace_all: boolean;
  expected_replacements?: number | undefined;
  edits?: readonly EditItem[] | undefined;
}

/** The form a call uses. */
export type EditForm = { readonly kind: "single"; readonly edit: EditInput } | { readonly kind: "multi"; readonly edits: readonly EditItem[] };

const EMPTY_OLD_STRING =
  "Edit needs a non-empty old_string. To create a file use Write; to add text, include an existing neighbouring line in old_string and repeat it in new_string.";

/**
 * The form of `input`, or `invalid_arguments` naming what to send instead.
 * Checks only the arguments, never the file.
 *
 * @example
 * editFormOf({ edits: [{ old_string: "a", new_string: "b" }], replace_all: false }).kind; // "multi"
 */
export function editFormOf(input: EditArguments): EditForm {
  const single = input.old_string !== undefined || input.new_string !== undefined;
  if (input.edits !== undefined) {
    if (single) {
      throw new ToolError(
        "invalid_arguments",
        "Edit takes either old_string/new_string (one change) or edits (several changes), not both. Put every change in edits and leave old_string and new_string out, or send one change without edits.",
      );
    }
    if (input.edits.length === 0) throw new ToolError("invalid_arguments", "Edit's edits is empty: send at least one { old_string, new_string } in it.");
    if (input.edits.length > MAX_EDITS) {
      throw new ToolError(
        "invalid_arguments",
        `Edit takes at most ${MAX_EDITS} edits per call (got ${input.edits.length}): split them over several calls, or use Write for a rewrite.`,
      );
    }
    if (input.expected_replacements !== undefined) {
      throw new ToolError(
        "invalid_arguments",
        "expected_replacements applies to old_string/new_string only. With edits, leave it out: each edit must match exactly once unless its replace_all=true.",
      );
    }
    if (input.replace_all) {
      throw new ToolError(
        "invalid_arguments",
        "replace_all=true at the top applies to old_string/new_string only. With edits, set replace_all=true on the edit it is for.",
      );
    }
    const empty = input.edits.findIndex((edit) => edit.old_string === "");
    if (empty !== -1) {
      throw new ToolError(
        "invalid_arguments",
        `Edit failed: edit ${empty + 1} of ${input.edits.length} has an empty old_string. ${EMPTY_OLD_STRING.slice("Edit needs a non-empty old_string. ".length)}`,
        { details: { edit: empty + 1 } },
      );
    }
    return { kind: "multi", edits: input.edits };
  }
  if (input.old_string === undefined || input.new_string === undefined) {
    const missing = input.old_string === undefined ? (input.new_string === undefined ? "old_string and new_string" : "old_string") : "new_string";
    throw new ToolError(
      "invalid_arguments",
      `Edit needs ${missing}: send old_string and new_string (new_string may be empty) for one change, or edits: [{ old_string, new_string }, ...] for several changes to this file.`,
    );
  }
  if (input.old_string === "") throw new ToolError("invalid_arguments", EMPTY_OLD_STRING);
  const edit: EditInput = { old_string: input.old_string, new_string: input.new_string, replace_all: input.replace_all };
  if (input.expected_replacements !== undefined) edit.expected_replacements = input.expected_replacements;
  return { kind: "single", edit };
}
