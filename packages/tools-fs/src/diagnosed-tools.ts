/**
 * What each changing tool tells `withEditDiagnostics`: the paths it may
 * change (resolved before it runs) and what its committed result changed.
 */
import type { ToolContext } from "@agent-tools/core";
import type { DiagnosticsFileChange } from "@agent-tools/core/diagnostics";
import type { z } from "zod";
import type { ApplyPatchDetails } from "./apply-patch/apply-patch-result.js";
import type { applyPatchInputSchema } from "./apply-patch/apply-patch-tool.js";
import type { DeleteDetails, deleteInputSchema } from "./delete/delete-tool.js";
import type { EditDetails, editInputSchema } from "./edit/edit-tool.js";
import type { NotebookEditDetails } from "./notebook-edit/notebook-edit-result.js";
import type { notebookEditInputSchema } from "./notebook-edit/notebook-edit-tool.js";
import type { DiagnosedTool } from "./shared/edit-diagnostics-call.js";
import type { WriteDetails, writeInputSchema } from "./write/write-tool.js";

/** The most paths of a patch handed to the provider's `before` (ApplyPatch refuses more than 256 files). */
const MAX_PATCH_PATHS = 256;

const PATCH_HEADER = /^\*\*\* (?:Add File|Delete File|Update File|Move to): (.*)$/;

function resolved(context: ToolContext, path: string, intent: "write" | "edit" | "delete"): string {
  return context.paths.resolve(path, { intent }).absolutePath;
}

/** Write: the file, created or modified. */
export const writeDiagnosed: DiagnosedTool<z.output<typeof writeInputSchema>, WriteDetails> = {
  paths: (input, context) => [resolved(context, input.path, "write")],
  changes: (details) => [{ path: details.absolutePath, displayPath: details.path, change: details.existedBefore ? "modified" : "created" }],
};

/** Edit: the file, modified. */
export const editDiagnosed: DiagnosedTool<z.output<typeof editInputSchema>, EditDetails> = {
  paths: (input, context) => [resolved(context, input.path, "edit")],
  changes: (details) => [{ path: details.absolutePath, displayPath: details.path, change: "modified" }],
};

/** NotebookEdit: the notebook, modified (no default server handles .ipynb: the provider then has nothing to say). */
export const notebookEditDiagnosed: DiagnosedTool<z.output<typeof notebookEditInputSchema>, NotebookEditDetails> = {
  paths: (input, context) => [resolved(context, input.path, "edit")],
  changes: (details) => [{ path: details.absolutePath, displayPath: details.path, change: "modified" }],
};

/** Delete: the entry, deleted (the provider reports what its importers lost). */
export const deleteDiagnosed: DiagnosedTool<z.output<typeof deleteInputSchema>, DeleteDetails> = {
  paths: (input, context) => [resolved(context, input.path, "delete")],
  changes: (details) => [{ path: details.absolutePath, displayPath: details.path, change: "deleted" }],
};

/** ApplyPatch: every file its headers name; a move is the source deleted and the destination created. */
export const applyPatchDiagnosed: DiagnosedTool<z.output<typeof applyPatchInputSchema>, ApplyPatchDetails> = {
  paths(input, context) {
    const paths = new Set<string>();
    for (const line of input.patch.split("\n")) {
      const header = PATCH_HEADER.exec(line.trimEnd());
      if (!header || header[1]!.trim() === "") continue;
      paths.add(resolved(context, header[1]!.trim(), "write"));
      if (paths.size >= MAX_PATCH_PATHS) break;
    }
    return [...paths];
  },
  changes(details, context) {
    const changes: DiagnosticsFileChange[] = [];
    for (const file of details.files) {
      if (file.operation === "move" && file.movedTo !== undefined) {
        changes.push({ path: file.absolutePath, displayPath: file.path, change: "deleted" });
        changes.push({ path: resolved(context, file.movedTo, "write"), displayPath: file.movedTo, change: "created" });
        continue;
      }
      const change = file.operation === "add" ? "created" : file.operation === "delete" ? "deleted" : "modified";
      changes.push({ path: file.absolutePath, displayPath: file.path, change });
    }
    return changes;
  },
};
