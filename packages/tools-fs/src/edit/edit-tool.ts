import { defineTool, type ResolvedPath, type ToolContext } from "@agent-tools/core";
import { z } from "zod";
import { type PendingHash, ownedArrayBuffer } from "../fast-io/hash-worker.js";
import { notFoundError, onResolvedPath } from "../shared/fs-errors.js";
import type { MutationHashOptions } from "../file-engine/atomic-commit.js";
import { FileEngine } from "../file-engine/file-engine.js";
import { assertRegularFile } from "../shared/regular-file.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { type PlannedEdit, planEdit } from "./edit-plan.js";
import { EditPrescan } from "./edit-prescan.js";
import { type EditDetails, editResult, multiEditResult } from "./edit-result.js";
import { type EditArguments, MAX_EDITS, editFormOf } from "./edit-form.js";
import { planMultiEdit } from "./multi-edit-plan.js";
import { remoteWorkspace } from "../workspace/workspace-call.js";
import { editInWorkspace } from "../workspace/workspace-edit.js";
import { resumeEdit } from "./edit-resume.js";

/** One edit of Edit's `edits` (described by the tool's description, to keep the schema short). */
const editItemSchema = z.strictObject({
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});

/** Edit's input schema. */
export const editInputSchema = z.object({
  path: z.string().describe("Existing file: workspace-relative, root://<alias>/... (write roots only), or absolute inside the workspace."),
  old_string: z.string().optional().describe("Exact text, copied from Read output without the line-number prefix."),
  new_string: z.string().optional().describe("May be empty."),
  expected_replacements: z.number().int().min(1).optional().describe("Fail unless exactly this many are replaced."),
  replace_all: z.boolean().default(false),
  edits: z
    .array(editItemSchema)
    .min(1)
    .max(MAX_EDITS)
    .optional()
    .describe(`Instead of old_string/new_string: at most ${MAX_EDITS}, in order, each on the result of the previous ones, all or none.`),
});

export type { EditDetails };

const DESCRIPTION = `Replaces text in an existing file; never creates one (use Write).
- old_string must occur exactly once unless replace_all=true: add surrounding lines to make it unique. Without an exact match Edit retries ignoring line endings (CRLF/LF, BOM), then trailing whitespace, then a uniform indentation shift.
- If the file changed since your last Read, Edit refuses (stale_file): Read it again, then retry. An unread file is read automatically (autoRead=full); chained edits need no re-read.`;

/** Creates the Edit tool for one bundle. */
export function createEditTool(environment: FsToolEnvironment, options: MutationHashOptions = {}) {
  const engine = new FileEngine(environment, options);
  return defineTool<typeof editInputSchema, EditDetails>({
    name: "Edit",
    description: DESCRIPTION,
    inputSchema: editInputSchema,
    metadata: {
      groupId: "fs",
      kind: "edit",
      isReadOnly: false,
      displayCategory: "file",
      annotations: { readOnly: false, destructive: true, openWorld: false, listedInPlanMode: false },
    },
    // Running it again leaves the file as one run does; resume tells a call that already happened from one that did not.
    effects: "idempotent",
    resume: (input, context) => resumeEdit(input, context, { environment, engine }),
    async execute(input, context) {
      const workspace = remoteWorkspace(context);
      const onPath = (resolved: ResolvedPath) => editResolved({ input, resolved, context, engine });
      if (workspace) {
        const local = (resolved: ResolvedPath) => onResolvedPath({ toolName: "Edit", path: input.path, intent: "edit", context }, () => onPath(resolved));
        return editInWorkspace({ workspace, input, context, environment, local });
      }
      return onResolvedPath({ toolName: "Edit", path: input.path, intent: "edit", context }, onPath);
    },
  });
}

/** One Edit call, resolved. */
interface EditCall {
  input: EditArguments;
  resolved: ResolvedPath;
  context: ToolContext;
  engine: FileEngine;
}

/** Edit: open the file anchored and locked, read it, match, then commit. */
async function editResolved(call: EditCall) {
  const { resolved, context } = call;
  const form = editFormOf(call.input);
  if (!resolved.exists) throw notFoundError("Edit", resolved, context);
  return call.engine.mutate({ toolName: "Edit", resolved, context, followLeaf: true }, async (file) => {
    if (!file.stats) throw notFoundError("Edit", resolved, context);
    assertRegularFile("Edit", resolved.displayPath, file.stats);
    // The write's temporary file is created on the thread pool while the
    // file is opened, read and matched (removed again if the edit fails).
    const temporary = file.prepareTemporary();
    try {
      // A large file is searched for (the first) old_string's probe chunk by chunk while it is read.
      const prescan = new EditPrescan(form.kind === "single" ? form.edit.old_string : form.edits[0]!.old_string);
      const content = await file.readWhole((prefix) => prescan.onChunk(prefix));
      let pendingHash: PendingHash | undefined;
      try {
        const prescanned = prescan.result(content.bytes);
        const commit = async (plan: PlannedEdit & { backing?: Buffer }) => {
          // The hash worker may take the memory under the pieces: the file's content, or the buffer a multi-edit made.
          const owned = plan.backing ?? (content.pooled ? undefined : content.bytes);
          const written = await file.commit({
            pieces: plan.pieces,
            countLines: plan.countLines,
            transfer: owned ? ownedArrayBuffer(owned) : undefined,
            prepared: temporary,
          });
          pendingHash = written.pendingHash;
          return written.version;
        };
        if (form.kind === "single") {
          const plan = await planEdit({ input: form.edit, file, content, context, prescanned });
          return editResult({ input: form.edit, resolved }, plan, await commit(plan), pendingHash);
        }
        const plan = await planMultiEdit({ edits: form.edits, file, content, context, prescanned });
        return multiEditResult({ edits: form.edits, resolved }, plan, await commit(plan), pendingHash);
      } finally {
        await content.finish(pendingHash);
      }
    } finally {
      await temporary.discard();
    }
  });
}
