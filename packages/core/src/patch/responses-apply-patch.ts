/**
 * The OpenAI Responses API's built-in `apply_patch` tool sends one file
 * operation per call (`create_file` with `+` lines, `update_file` with the
 * hunks of a V4A patch, `delete_file`). This turns one into a whole V4A
 * patch, so the ApplyPatch tool runs it with the same engine, checks and
 * permission rules as a patch the model wrote itself.
 */
import { ToolError } from "../errors.js";

/** One operation of an `apply_patch_call` item (`item.operation`). */
export interface ResponsesApplyPatchOperation {
  readonly type: "create_file" | "update_file" | "delete_file";
  /** The file's path, as the model wrote it. */
  readonly path: string;
  /** `create_file`: the new file's lines, each `+` and the line. `update_file`: the hunks (`@@` anchors, ` `, `-`, `+` lines, `*** End of File`). */
  readonly diff?: string | null | undefined;
}

const OPERATION_TYPES = ["create_file", "update_file", "delete_file"] as const;
const END_OF_FILE = "*** End of File";

/** A refused operation, written for the model that sent it. */
function operationError(message: string, details: Record<string, unknown>): ToolError {
  return new ToolError("invalid_arguments", `apply_patch: ${message}`, { details });
}

/** The diff's lines (LF or CRLF), without the empty piece after a final newline. */
function diffLines(diff: string): string[] {
  const lines = diff.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Whether `line` may stand in an `update_file` diff: a hunk line, an `@@` anchor, `*** End of File`, or blank (an empty context line). */
function isHunkLine(line: string): boolean {
  return line === "" || line.startsWith(" ") || line.startsWith("-") || line.startsWith("+") || line.startsWith("@@") || line.trimEnd() === END_OF_FILE;
}

/** The body lines of the operation's V4A section, each checked; throws naming the first line that does not belong. */
function bodyOf(operation: ResponsesApplyPatchOperation, path: string): string[] {
  if (operation.type === "delete_file") return [];
  if (typeof operation.diff !== "string") {
    throw operationError(
      `${operation.type} ${path} has no diff. Send the ${operation.type === "create_file" ? 'new file\'s lines, each starting with "+"' : "hunks to apply"}.`,
      {
        path,
        operation: operation.type,
      },
    );
  }
  const lines = diffLines(operation.diff);
  // A line that is neither content nor hunk would be read as a header of the patch, e.g. a second
  // file's `*** Update File:`: one call changes one file, so such a line is refused, not passed on.
  const fits = operation.type === "create_file" ? (line: string) => line === "" || line.startsWith("+") : isHunkLine;
  const bad = lines.findIndex((line) => !fits(line));
  if (bad >= 0) {
    const shown = JSON.stringify(lines[bad]!.slice(0, 60));
    const rule =
      operation.type === "create_file"
        ? 'every line of a new file\'s diff starts with "+"'
        : `each line of the diff starts with "@@", " " (context), "-" (removed) or "+" (added), or is "${END_OF_FILE}"`;
    throw operationError(`${operation.type} ${path}: line ${bad + 1} of the diff (${shown}) does not fit: ${rule}. Send the diff of this one file again.`, {
      path,
      operation: operation.type,
      diffLine: bad + 1,
    });
  }
  if (operation.type === "update_file" && !lines.some((line) => line.trim() !== "" && line.trimEnd() !== END_OF_FILE && !line.startsWith("@@"))) {
    throw operationError(`update_file ${path}: the diff has no hunk line. Send "@@" hunks with " " context, "-" removed and "+" added lines.`, {
      path,
      operation: operation.type,
    });
  }
  return lines;
}

/**
 * The whole V4A patch text (`*** Begin Patch` ... `*** End Patch`) for one
 * operation of the Responses API's built-in `apply_patch` tool:
 * `create_file` becomes `*** Add File:` with the diff's `+` lines,
 * `update_file` `*** Update File:` with the diff as its hunks, and
 * `delete_file` `*** Delete File:`. Throws `ToolError("invalid_arguments")`
 * (details: `path`, `operation`, `diffLine`) for an operation no patch can
 * express: an unknown type, a path with a line break or none, a missing
 * diff, or a diff line that does not belong to its operation (a line that
 * would start another file's section is refused here, so one call changes
 * one file).
 *
 * @example
 * applyPatchOperationToV4A({ type: "update_file", path: "src/a.ts", diff: "@@\n-old\n+new\n" });
 * // "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-old\n+new\n*** End Patch\n"
 */
export function applyPatchOperationToV4A(operation: ResponsesApplyPatchOperation): string {
  const type: unknown = operation?.type;
  if (typeof type !== "string" || !(OPERATION_TYPES as readonly string[]).includes(type)) {
    throw operationError(`unknown operation type ${JSON.stringify(type)}: use "create_file", "update_file" or "delete_file".`, { operation: type });
  }
  const path: unknown = operation.path;
  if (typeof path !== "string" || path.trim() === "" || /[\r\n]/.test(path)) {
    throw operationError(`${type} needs the file's path on one line; got ${JSON.stringify(path)}.`, { path, operation: type });
  }
  const header = type === "create_file" ? "*** Add File: " : type === "update_file" ? "*** Update File: " : "*** Delete File: ";
  return `${["*** Begin Patch", `${header}${path}`, ...bodyOf(operation, path), "*** End Patch"].join("\n")}\n`;
}
