/**
 * The planning half of ApplyPatch: with every file held, each operation is
 * checked as Write, Edit or Delete would check it (read-before-write, the
 * stale check, a regular text file) and its new content computed. Nothing
 * is written here: the first refusal ends the patch with every file as it
 * was.
 */
import { ToolError, type ToolContext } from "@agent-tools/core";
import type { PatchOperation } from "@agent-tools/core/patch";
import { applyPatchHunks } from "../patch/apply-patch-hunks.js";
import type { PatchedHunk } from "../patch/patch-match-types.js";
import { looksBinary } from "../shared/text-window.js";
import type { HeldPatchFile } from "./held-file.js";

/** One operation, checked and computed, ready to commit. */
export type PlannedChange =
  | { readonly kind: "add"; readonly file: HeldPatchFile; readonly before: Buffer | undefined; readonly pieces: Buffer[]; readonly mode: number | undefined }
  | {
      readonly kind: "delete";
      readonly file: HeldPatchFile;
      /** The content, kept to restore the file if a later write fails; undefined for a file over {@link DELETE_COPY_MAX_BYTES}. */
      readonly before: Buffer | undefined;
      readonly mode: number | undefined;
    }
  | {
      readonly kind: "update";
      readonly file: HeldPatchFile;
      readonly before: Buffer;
      readonly pieces: Buffer[];
      readonly mode: number | undefined;
      readonly hunks: readonly PatchedHunk[];
      readonly autoRead: boolean;
      /** The held destination of a `*** Move to:`. */
      readonly destination?: HeldPatchFile | undefined;
    };

const NOTHING_WRITTEN = "Nothing was written: the patch applies all or nothing.";

/**
 * The largest file a deletion keeps a copy of (to restore it if a later
 * write of the patch fails); a larger one is not read (as the Delete tool
 * reads nothing), deleted after every other change of the patch, and
 * reported if it then cannot be restored.
 */
export const DELETE_COPY_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The most hunk-by-line work one patch may ask for: each hunk (and each of
 * its `@@` anchors) is searched for through its file, on the event loop,
 * so the work grows with hunks times lines (1000 hunks on a 200,000-line
 * file: about 2 s). The sum over the patch's files of hunks x lines.
 */
export const MAX_HUNK_LINE_WORK = 250_000_000;

function cancelled(): ToolError {
  return new ToolError("cancelled", "Cancelled: the host aborted this call before it changed anything.");
}

/** The text of an added file: each line followed by a newline. */
function addedContent(lines: readonly string[]): Buffer {
  return Buffer.from(lines.map((line) => `${line}\n`).join(""), "utf8");
}

/** Reads a regular text file the patch changes. */
async function readText(file: HeldPatchFile): Promise<Buffer> {
  file.assertRegular();
  const bytes = await file.read();
  if (looksBinary(bytes)) {
    throw new ToolError("binary_file", `ApplyPatch refused: ${file.resolved.displayPath} is a binary file (it contains NUL bytes). ${NOTHING_WRITTEN}`, {
      details: { path: file.resolved.displayPath },
    });
  }
  return bytes;
}

async function planAdd(file: HeldPatchFile, lines: readonly string[]): Promise<PlannedChange> {
  const display = file.resolved.displayPath;
  const pieces = [addedContent(lines)];
  if (file.type === "missing") return { kind: "add", file, before: undefined, pieces, mode: undefined };
  if (file.type === "directory") {
    throw new ToolError("not_a_file", `ApplyPatch failed: ${display} is a directory; "*** Add File:" needs a file path. ${NOTHING_WRITTEN}`, {
      details: { path: display },
    });
  }
  file.assertRegular();
  // Over an existing file only when the model read it in full: then it is a Write of that file.
  const expected = file.recorded().fullText;
  if (!expected) {
    throw new ToolError(
      "conflict",
      `ApplyPatch refused: "*** Add File: ${display}" names a file that already exists. Use "*** Update File: ${display}" with hunks, or Read it in full first if you mean to replace its whole content. ${NOTHING_WRITTEN}`,
      { details: { path: display } },
    );
  }
  const before = await file.read();
  await file.assertUnchanged(expected, () => before);
  return { kind: "add", file, before, pieces, mode: file.mode };
}

async function planDelete(file: HeldPatchFile): Promise<PlannedChange> {
  const display = file.resolved.displayPath;
  if (file.type === "missing") throw await file.notFound();
  if (file.type === "symlink") {
    throw new ToolError(
      "unsupported_target",
      `ApplyPatch refused: ${display} is a symlink; "*** Delete File:" removes regular files. Use the Delete tool to remove the link itself. ${NOTHING_WRITTEN}`,
      { details: { path: display } },
    );
  }
  file.assertRegular();
  const before = file.size <= DELETE_COPY_MAX_BYTES ? await file.read() : undefined;
  // A file the model saw must still be that version (it would delete changes it never saw).
  const { latest } = file.recorded();
  if (latest) await file.assertUnchanged(latest, () => before ?? file.read());
  return { kind: "delete", file, before, mode: file.mode };
}

/** What the patch's hunks have cost so far (see {@link MAX_HUNK_LINE_WORK}). */
interface WorkBudget {
  used: number;
}

function assertWithinBudget(file: HeldPatchFile, hunks: number, lines: number, budget: WorkBudget): void {
  budget.used += hunks * Math.max(1, lines);
  if (budget.used <= MAX_HUNK_LINE_WORK) return;
  const fits = Math.max(1, Math.floor(MAX_HUNK_LINE_WORK / Math.max(1, lines)));
  throw new ToolError(
    "invalid_arguments",
    `ApplyPatch refused: ${hunks} hunks on ${file.resolved.displayPath} (${lines} lines) are more than one patch searches through. Send at most ${fits} hunks for it per patch, or rewrite it with Write. ${NOTHING_WRITTEN}`,
    { details: { path: file.resolved.displayPath, hunks, lines, limit: fits } },
  );
}

async function planUpdate(
  operation: PatchOperation & { kind: "update" },
  file: HeldPatchFile,
  destination: HeldPatchFile | undefined,
  budget: WorkBudget,
): Promise<PlannedChange> {
  if (file.type === "missing") throw await file.notFound();
  const before = await readText(file);
  const { fullText, latest } = file.recorded();
  const expected = fullText ?? latest;
  // As Edit: an unread file is read here (autoRead); a read one must still be the version seen.
  if (expected) await file.assertUnchanged(expected, () => before);
  if (destination !== undefined && destination.type !== "missing") {
    const display = destination.resolved.displayPath;
    throw new ToolError(
      "conflict",
      `ApplyPatch refused: "*** Move to: ${display}" names a path that already exists; a move never overwrites. Move to a new path, or Delete ${display} first. ${NOTHING_WRITTEN}`,
      { details: { path: display } },
    );
  }
  let patched: { pieces: Buffer[]; hunks: PatchedHunk[] } = { pieces: [before], hunks: [] };
  if (operation.hunks.length > 0) {
    const anchors = operation.hunks.reduce((sum, hunk) => sum + hunk.anchors.length, 0);
    const counts = file.countLineEndings(before);
    assertWithinBudget(file, operation.hunks.length + anchors, counts.lf + 1, budget);
    try {
      patched = applyPatchHunks(before, operation.hunks, { displayPath: file.resolved.displayPath, lineEndingCounts: () => counts });
    } catch (error) {
      if (error instanceof ToolError) {
        throw new ToolError(error.code, `${error.message} ${NOTHING_WRITTEN}`, { details: error.details, recoverable: error.recoverable });
      }
      throw error;
    }
  }
  return { kind: "update", file, before, pieces: patched.pieces, mode: file.mode, hunks: patched.hunks, autoRead: expected === undefined, destination };
}

/**
 * Checks and computes every operation (`files`: the held files of
 * `patchPathRequests(operations)`, in that order). Throws the first
 * refusal; changes nothing.
 */
export async function planPatch(operations: readonly PatchOperation[], files: readonly HeldPatchFile[], context: ToolContext): Promise<PlannedChange[]> {
  const changes: PlannedChange[] = [];
  const budget: WorkBudget = { used: 0 };
  let index = 0;
  for (const operation of operations) {
    if (context.signal.aborted) throw cancelled();
    const file = files[index++]!;
    if (operation.kind === "add") changes.push(await planAdd(file, operation.lines));
    else if (operation.kind === "delete") changes.push(await planDelete(file));
    else {
      const destination = operation.moveTo === undefined ? undefined : files[index++];
      changes.push(await planUpdate(operation, file, destination, budget));
    }
  }
  if (context.signal.aborted) throw cancelled();
  return changes;
}
