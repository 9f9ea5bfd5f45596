import { type ResolvedPath, type ToolContext, defineTool } from "@agent-tools/core";
import { z } from "zod";
import type { MutationHashOptions } from "../file-engine/atomic-commit.js";
import { FileEngine } from "../file-engine/file-engine.js";
import { notFoundError, onResolvedPath } from "../shared/fs-errors.js";
import { assertRegularFile } from "../shared/regular-file.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { remoteWorkspace } from "../workspace/workspace-call.js";
import { type NotebookEditDetails, assertNotebookCurrent, countPieceLines, notebookEditResult } from "./notebook-edit-result.js";
import { resumeNotebookEdit } from "./notebook-edit-resume.js";
import { notebookEditInWorkspace } from "./notebook-edit-workspace.js";
import { assertNotebookPath } from "./notebook-parse.js";
import { type NotebookEditInput, planNotebookEdit } from "./notebook-plan.js";

/** NotebookEdit's input schema. */
export const notebookEditInputSchema = z.object({
  path: z.string().describe("The .ipynb file: workspace-relative, root://<alias>/... (write roots only), or absolute inside the workspace."),
  cell_id: z.string().optional(),
  cell_index: z.number().int().min(0).optional(),
  new_source: z.string().describe("Whole new source; ignored by delete."),
  cell_type: z.enum(["code", "markdown"]).optional().describe("Required by insert; on replace, changes the type."),
  edit_mode: z.enum(["replace", "insert", "delete"]).default("replace").describe("Default replace."),
});

export type { NotebookEditDetails };

const DESCRIPTION = `Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb).
- Name the cell by cell_id (Read shows id=...) or cell_index (1-based: Read's "Cell N"), not both. insert adds the new cell after it (cell_index=0: first; neither: last).
- An edited code cell's outputs and execution_count are cleared.
- Read the notebook first; if it changed since, NotebookEdit refuses (stale_file).`;

/** Creates the NotebookEdit tool for one bundle. */
export function createNotebookEditTool(environment: FsToolEnvironment, options: MutationHashOptions = {}) {
  const engine = new FileEngine(environment, options);
  return defineTool<typeof notebookEditInputSchema, NotebookEditDetails>({
    name: "NotebookEdit",
    description: DESCRIPTION,
    inputSchema: notebookEditInputSchema,
    metadata: {
      groupId: "fs",
      kind: "edit",
      isReadOnly: false,
      displayCategory: "file",
      annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: false, listedInPlanMode: false },
    },
    // An insert or delete run twice changes two cells: resume tells one that already happened from one that did not.
    effects: "idempotent",
    resume: (input, context) => resumeNotebookEdit(input, context, { environment, engine }),
    async execute(input, context) {
      const workspace = remoteWorkspace(context);
      const local = (resolved: ResolvedPath) =>
        onResolvedPath({ toolName: "NotebookEdit", path: input.path, intent: "edit", context }, () =>
          notebookEditResolved({ input, resolved, context, engine }),
        );
      if (workspace) return notebookEditInWorkspace({ workspace, input, context, environment, local });
      return onResolvedPath({ toolName: "NotebookEdit", path: input.path, intent: "edit", context }, (resolved) =>
        notebookEditResolved({ input, resolved, context, engine }),
      );
    },
  });
}

/** One NotebookEdit call, resolved. */
interface NotebookEditCall {
  input: NotebookEditInput;
  resolved: ResolvedPath;
  context: ToolContext;
  engine: FileEngine;
}

/** NotebookEdit on the local disk: open anchored and locked, check the version, splice, commit. */
async function notebookEditResolved(call: NotebookEditCall) {
  const { input, resolved, context } = call;
  assertNotebookPath(resolved.displayPath);
  if (!resolved.exists) throw notFoundError("NotebookEdit", resolved, context);
  return call.engine.mutate({ toolName: "NotebookEdit", resolved, context, followLeaf: true }, async (file) => {
    if (!file.stats) throw notFoundError("NotebookEdit", resolved, context);
    assertRegularFile("NotebookEdit", resolved.displayPath, file.stats);
    const content = await file.readWhole();
    let pendingHash: Parameters<typeof content.finish>[0];
    try {
      await assertNotebookCurrent(file, content.stats, content.bytes, context);
      const plan = planNotebookEdit(content.bytes, input, resolved.displayPath);
      const written = await file.commit({ pieces: plan.pieces, countLines: () => countPieceLines(plan.pieces, (bytes) => file.countLineEndings(bytes)) });
      pendingHash = written.pendingHash;
      return notebookEditResult({ input, resolved }, plan, written.version, pendingHash !== undefined);
    } finally {
      await content.finish(pendingHash);
    }
  });
}
