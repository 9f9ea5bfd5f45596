import { ToolError, type ToolContext, defineTool } from "@agent-tools/core";
import { parseV4APatch } from "@agent-tools/core/patch";
import { z } from "zod";
import { withCheckpointRecording } from "../file-engine/checkpoint-recording.js";
import { FileEngine } from "../file-engine/file-engine.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { type ApplyPatchDetails, applyPatchResult } from "./apply-patch-result.js";
import { resumeApplyPatch } from "./apply-patch-resume.js";
import { commitPatch } from "./commit-patch.js";
import { MAX_PATCH_HUNKS, holdAll, patchPathHolders, patchPathRequests } from "./patch-paths.js";
import { planPatch } from "./plan-patch.js";

/**
 * The longest patch text ApplyPatch takes (characters): checked by the
 * schema, before the permission rules and the parser see it (a 120 MB patch
 * of ten million hunks ran the host out of memory while it was parsed,
 * before the hunk limit refused it).
 */
export const MAX_PATCH_CHARS = 8 * 1024 * 1024;

/** ApplyPatch's input schema. */
export const applyPatchInputSchema = z.object({
  patch: z
    .string()
    .max(MAX_PATCH_CHARS)
    .describe(
      "The whole patch: *** Begin Patch, then *** Add File: <path> (+ lines) / *** Delete File: <path> / *** Update File: <path> (optional *** Move to: <path>, then @@ hunks of ' ' context, '-' removed, '+' added lines), then *** End Patch.",
    ),
});

const DESCRIPTION = `Applies a patch in the V4A format to one or more files, all or nothing: if any hunk of any file fails, nothing is written.
*** Begin Patch
*** Update File: src/app.ts
@@ function main
 context line
-removed line
+added line
*** Add File: notes.md
+new content
*** Delete File: old.txt
*** End Patch
- Paths are workspace-relative, root://<alias>/... (write roots only), or absolute inside the workspace. "*** Move to: <path>" after an Update header renames the file (never over an existing one).
- Give about 3 context lines around each change and "@@ <line>" anchors (a class or function line) when the context alone is not unique; a place matching twice is refused.
- Add File over an existing file is refused unless you Read it in full; a file changed on disk since your last Read is refused (stale_file): Read it again.
- At most 256 files, 1000 hunks and 8 MiB of text per patch.`;

/** Creates the ApplyPatch tool for one bundle. */
export function createApplyPatchTool(environment: FsToolEnvironment) {
  const engine = new FileEngine(environment);
  return defineTool<typeof applyPatchInputSchema, ApplyPatchDetails>({
    name: "ApplyPatch",
    description: DESCRIPTION,
    inputSchema: applyPatchInputSchema,
    metadata: {
      groupId: "fs",
      kind: "edit",
      isReadOnly: false,
      displayCategory: "file",
      annotations: { readOnly: false, destructive: true, openWorld: false, listedInPlanMode: false },
    },
    // Running it again after it applied finds the files changed: resume tells an applied patch from one not yet applied.
    effects: "idempotent",
    resume: (input, context) => resumeApplyPatch(input, context, { environment, engine }),
    execute: (input, context) => applyPatch(input.patch, context, environment, engine),
  });
}

/** Parses, holds every file, plans every change, then commits them all. */
async function applyPatch(text: string, context: ToolContext, environment: FsToolEnvironment, engine: FileEngine) {
  const { operations } = parseV4APatch(text, { maxHunks: MAX_PATCH_HUNKS });
  const holders = await patchPathHolders(patchPathRequests(operations), { context, environment, engine, createParents: true });
  try {
    return await holdAll(holders, async (files) => {
      const changes = await planPatch(operations, files, context);
      // The workspace's files had their checkpoint pre-images recorded when they were held; the local disk's are recorded here, all before any write.
      const local = files.filter((_, index) => holders[index]!.order.startsWith("local:")).map((file) => file.key);
      const committed = await withCheckpointRecording(
        context,
        { displayPath: files[0]!.resolved.displayPath },
        () => local,
        () => commitPatch(changes),
      );
      return applyPatchResult(committed);
    });
  } catch (error) {
    // A refused patch leaves no directory it created for a new file.
    for (const holder of holders) await holder.removeCreatedDirectories();
    if (error instanceof ToolError) throw error;
    throw new ToolError("io", `ApplyPatch failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
