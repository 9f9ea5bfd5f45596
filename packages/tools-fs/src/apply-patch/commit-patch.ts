/**
 * The committing half of ApplyPatch: every planned change written in patch
 * order, each file atomically, while every file is still held. When a write
 * fails midway (I/O: a full disk, a dropped connection), the files already
 * committed are put back from their pre-images (their locks are still held,
 * so nobody changed them in between) and the error says which were
 * restored, and which could not be.
 */
import { ToolError } from "@agent-tools/core";
import type { FullTextSnapshot } from "../shared/file-state.js";
import type { HeldPatchFile } from "./held-file.js";
import type { PlannedChange } from "./plan-patch.js";

/** What one committed change left: the version written (none for a deletion). */
export interface CommittedChange {
  readonly change: PlannedChange;
  readonly version: FullTextSnapshot | undefined;
}

/** One committed step and how to take it back. */
interface Undo {
  readonly displayPath: string;
  undo(): Promise<void>;
}

/** Refuses to create `file` when something appeared at its path since it was planned (never overwritten). */
async function assertStillMissing(file: HeldPatchFile): Promise<void> {
  if (await file.isMissingNow()) return;
  const display = file.resolved.displayPath;
  throw new ToolError("conflict", `${display} appeared while the patch was being written (another process made it); it was not overwritten.`, {
    details: { path: display },
  });
}

async function commitOne(change: PlannedChange, undos: Undo[]): Promise<FullTextSnapshot | undefined> {
  const { file } = change;
  const display = file.resolved.displayPath;
  switch (change.kind) {
    case "add": {
      if (change.before === undefined) await assertStillMissing(file);
      const version = await file.write(change.pieces, change.mode);
      const before = change.before;
      undos.push({ displayPath: display, undo: () => (before === undefined ? file.remove() : file.write([before], change.mode).then(() => undefined)) });
      return version;
    }
    case "delete": {
      await file.remove();
      const before = change.before;
      undos.push({
        displayPath: display,
        undo: () =>
          before === undefined ? Promise.reject(new Error("no copy was kept of so large a file")) : file.write([before], change.mode).then(() => undefined),
      });
      return undefined;
    }
    case "update": {
      const destination = change.destination;
      if (destination === undefined) {
        const version = await file.write(change.pieces, change.mode);
        undos.push({ displayPath: display, undo: () => file.write([change.before], change.mode).then(() => undefined) });
        return version;
      }
      // A move: the new file first (with the source's permissions), then the source removed.
      await assertStillMissing(destination);
      const version = await destination.write(change.pieces, change.mode);
      undos.push({ displayPath: destination.resolved.displayPath, undo: () => destination.remove() });
      await file.remove();
      undos.push({ displayPath: display, undo: () => file.write([change.before], change.mode).then(() => undefined) });
      return version;
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Commits `changes` in order; on a failure restores what was committed
 * (newest first) and throws a `ToolError` naming the failed file, the
 * restored files and any that could not be restored.
 */
export async function commitPatch(changes: readonly PlannedChange[]): Promise<CommittedChange[]> {
  const undos: Undo[] = [];
  const committed: CommittedChange[] = [];
  // Deletions of files too large to copy go last: a failure before them leaves them untouched.
  const uncopied = (change: PlannedChange) => change.kind === "delete" && change.before === undefined;
  const ordered = [...changes.filter((change) => !uncopied(change)), ...changes.filter(uncopied)];
  for (const change of ordered) {
    try {
      committed.push({ change, version: await commitOne(change, undos) });
    } catch (error) {
      const restored: string[] = [];
      const lost: string[] = [];
      for (const step of undos.reverse()) {
        try {
          await step.undo();
          restored.push(step.displayPath);
        } catch {
          lost.push(step.displayPath);
        }
      }
      const failed = change.file.resolved.displayPath;
      const code = error instanceof ToolError ? error.code : "io";
      const parts = [`ApplyPatch failed while writing ${failed}: ${messageOf(error)}`];
      if (restored.length > 0) parts.push(`The files already written were restored to their previous content: ${[...new Set(restored)].join(", ")}.`);
      if (lost.length > 0)
        parts.push(`These could not be restored and may hold the patch's change: ${[...new Set(lost)].join(", ")}; Read them before going on.`);
      if (restored.length === 0 && lost.length === 0) parts.push("No file was changed.");
      throw new ToolError(code, parts.join(" "), {
        details: { path: failed, restored: [...new Set(restored)], notRestored: [...new Set(lost)] },
        recoverable: lost.length === 0,
        cause: error,
      });
    }
  }
  // In patch order again, for the answer.
  return changes.map((change) => committed.find((entry) => entry.change === change)!);
}
