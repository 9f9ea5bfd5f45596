/**
 * ApplyPatch's `resume`: for a call that started before a crash and has no
 * recorded outcome, the files tell whether it happened. Each operation is
 * judged on its own: still to do (an added file missing, a deleted one
 * there, an update whose hunks apply and whose reverse does not), or done
 * (the added file holds exactly its lines, the deleted one is gone, the
 * reverse of every hunk applies and the hunks themselves do not). Every
 * operation still to do: run it again. Every one done: done, nothing
 * written. Anything else (a mixture, a hunk that applies both ways such
 * as a pure addition whose context is still there, a file changed since):
 * unknown. The files are read under their locks, changing nothing.
 */
import type { ToolContext } from "@agent-tools/core";
import type { ToolResumeDecision } from "@agent-tools/core/durable";
import { type PatchHunk, type PatchOperation, parseV4APatch } from "@agent-tools/core/patch";
import type { FileEngine } from "../file-engine/file-engine.js";
import { applyPatchHunks } from "../patch/apply-patch-hunks.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import type { ApplyPatchDetails, ApplyPatchFileDetails } from "./apply-patch-result.js";
import type { HeldPatchFile } from "./held-file.js";
import { MAX_PATCH_HUNKS, holdAll, patchPathHolders, patchPathRequests } from "./patch-paths.js";

/** What ApplyPatch's resume needs of its bundle. */
export interface ApplyPatchResumeParts {
  readonly environment: FsToolEnvironment;
  readonly engine: FileEngine;
}

type Verdict = "pending" | "applied" | "unknown";

/** The largest file the check reads (64 MiB, as Edit's); a larger one is unknown, unread (the model may have made it huge). */
const RESUME_MAX_BYTES = 64 * 1024 * 1024;

/** The file's bytes, or undefined when it is larger than the check reads. */
async function readBounded(file: HeldPatchFile): Promise<Buffer | undefined> {
  if (file.size > RESUME_MAX_BYTES) return undefined;
  const bytes = await file.read();
  return bytes.length > RESUME_MAX_BYTES ? undefined : bytes;
}

/**
 * Whether `hunks` apply to `content`: `strict` only where each hunk's old
 * lines are there byte for byte (line endings aside). A hunk that applies
 * only by a looser pass may be finding another place after it applied (its
 * `-x` gone, but `x ` still there ignoring trailing whitespace), so "still to
 * do" needs the strict form; "applied" needs the reverse to apply at all.
 */
function applies(content: Buffer, hunks: readonly PatchHunk[], displayPath: string, strict: boolean): boolean {
  try {
    const patched = applyPatchHunks(content, hunks, { displayPath });
    return !strict || patched.hunks.every((hunk) => hunk.matchStrategy === "exact" || hunk.matchStrategy === "line-endings");
  } catch {
    return false;
  }
}

/** The hunks that undo `hunks`: added and removed lines swapped. */
function reversed(hunks: readonly PatchHunk[]): PatchHunk[] {
  return hunks.map((hunk) => ({
    ...hunk,
    lines: hunk.lines.map((line) => (line.kind === "context" ? line : { kind: line.kind === "add" ? ("remove" as const) : ("add" as const), text: line.text })),
  }));
}

/** Whether `hunks` are still to apply on `content` (they apply, their reverse does not), already applied (the other way round), or unknown. */
function hunksVerdict(content: Buffer | undefined, hunks: readonly PatchHunk[], displayPath: string): Verdict {
  if (content === undefined) return "unknown";
  const backward = applies(content, reversed(hunks), displayPath, false);
  if (applies(content, hunks, displayPath, true)) return backward ? "unknown" : "pending";
  // Neither strictly to do nor undoable: a loose forward match alone proves nothing either way.
  return backward && !applies(content, hunks, displayPath, false) ? "applied" : "unknown";
}

async function operationVerdict(operation: PatchOperation, files: readonly HeldPatchFile[], index: number): Promise<Verdict> {
  const file = files[index]!;
  const display = file.resolved.displayPath;
  if (file.type !== "missing" && file.type !== "file") return "unknown";
  if (operation.kind === "delete") return file.type === "missing" ? "applied" : "pending";
  if (operation.kind === "add") {
    if (file.type === "missing") return "pending";
    const expected = Buffer.from(operation.lines.map((line) => `${line}\n`).join(""), "utf8");
    // A file of another size cannot hold the lines: not read.
    if (file.size !== expected.length) return "unknown";
    return (await file.read()).equals(expected) ? "applied" : "unknown";
  }
  const destination = operation.moveTo === undefined ? undefined : files[index + 1]!;
  if (destination === undefined) return file.type === "missing" ? "unknown" : hunksVerdict(await readBounded(file), operation.hunks, display);
  if (destination.type !== "missing" && destination.type !== "file") return "unknown";
  if (file.type === "file" && destination.type === "missing") {
    return operation.hunks.length === 0 || hunksVerdict(await readBounded(file), operation.hunks, display) === "pending" ? "pending" : "unknown";
  }
  if (file.type === "missing" && destination.type === "file") {
    if (operation.hunks.length === 0) return "applied";
    return hunksVerdict(await readBounded(destination), operation.hunks, display) === "applied" ? "applied" : "unknown";
  }
  return "unknown";
}

/** Decides an interrupted ApplyPatch (see the module comment). */
export async function resumeApplyPatch(
  input: { patch: string },
  context: ToolContext,
  parts: ApplyPatchResumeParts,
): Promise<ToolResumeDecision<ApplyPatchDetails>> {
  let operations: readonly PatchOperation[];
  try {
    operations = parseV4APatch(input.patch, { maxHunks: MAX_PATCH_HUNKS }).operations;
  } catch {
    // A patch that does not parse is refused before anything is touched: running it again answers the same.
    return { action: "run" };
  }
  try {
    const holders = await patchPathHolders(patchPathRequests(operations), { ...parts, context, createParents: false });
    const verdicts = await holdAll(holders, async (files) => {
      const out: Verdict[] = [];
      let index = 0;
      for (const operation of operations) {
        out.push(await operationVerdict(operation, files, index));
        index += operation.kind === "update" && operation.moveTo !== undefined ? 2 : 1;
      }
      return out;
    });
    if (verdicts.every((verdict) => verdict === "pending")) return { action: "run" };
    if (verdicts.every((verdict) => verdict === "applied")) {
      const files: ApplyPatchFileDetails[] = operations.map((operation) => ({
        path: operation.path,
        absolutePath: holders.find((holder) => holder.resolved.input === operation.path)?.resolved.absolutePath ?? operation.path,
        operation: operation.kind === "update" && operation.moveTo !== undefined ? "move" : operation.kind,
        ...(operation.kind === "update" && operation.moveTo !== undefined ? { movedTo: operation.moveTo } : {}),
        hunks: [],
      }));
      const text = `ApplyPatch: already applied: this patch was interrupted after it wrote; every file already holds its change (${operations.map((operation) => operation.path).join(", ")}), so nothing was written again`;
      return { action: "done", output: { content: text, details: { kind: "apply_patch", files, diff: "" } } };
    }
    const described = operations.map(
      (operation, position) =>
        `${operation.path}: ${verdicts[position] === "pending" ? "not applied" : verdicts[position] === "applied" ? "applied" : "cannot tell"}`,
    );
    return { action: "unknown", note: `the files do not show whether the patch was applied (${described.join("; ")})` };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A new file's directory that does not exist: the patch (which would have made it) did not run.
    if ((error as { code?: string }).code === "not_found") return { action: "run" };
    return { action: "unknown", note: `ApplyPatch could not check its files before running again: ${message}` };
  }
}
