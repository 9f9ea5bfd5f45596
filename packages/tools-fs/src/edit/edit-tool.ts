import { ToolError, defineTool, type ResolvedPath, type ToolContext } from "@agent-tools/core";
import { z } from "zod";
import { type PendingHash, ownedArrayBuffer } from "../fast-io/hash-worker.js";
import { notFoundError, onResolvedPath } from "../shared/fs-errors.js";
import type { MutationHashOptions } from "../file-engine/atomic-commit.js";
import { FileEngine } from "../file-engine/file-engine.js";
import { assertRegularFile } from "../shared/regular-file.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import type { MatchStrategy } from "./edit-match.js";
import { type EditInput, planEdit } from "./edit-plan.js";
import { EditPrescan } from "./edit-prescan.js";
import { editResult } from "./edit-result.js";
import { remoteWorkspace } from "../workspace/workspace-call.js";
import { editInWorkspace } from "../workspace/workspace-edit.js";
import { resumeEdit } from "./edit-resume.js";

/** Edit's input schema. */
export const editInputSchema = z.object({
  path: z.string().describe("Existing file: workspace-relative, root://<alias>/... (write roots only), or absolute inside the workspace."),
  old_string: z.string().describe("Exact text, copied from Read output without the line-number prefix."),
  new_string: z.string().describe("May be empty."),
  expected_replacements: z.number().int().min(1).optional().describe("Fail unless exactly this many are replaced."),
  replace_all: z.boolean().default(false),
});

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
}

const DESCRIPTION = `Replaces text in an existing file; never creates one (use Write).
- old_string must occur exactly once unless replace_all=true: add surrounding lines to make it unique. Without an exact match Edit retries ignoring line endings (CRLF/LF, BOM), then trailing whitespace, then a uniform indentation shift.
- If the file changed on disk since your last Read, Edit refuses (stale_file): Read it again, then retry. An unread file is read automatically (autoRead=full); chained edits need no re-read.`;

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
      if (workspace) {
        const local = (resolved: ResolvedPath) =>
          onResolvedPath({ toolName: "Edit", path: input.path, intent: "edit", context }, () => editResolved({ input, resolved, context, engine }));
        return editInWorkspace({ workspace, input, context, environment, local });
      }
      return onResolvedPath({ toolName: "Edit", path: input.path, intent: "edit", context }, (resolved) => editResolved({ input, resolved, context, engine }));
    },
  });
}

/** One Edit call, resolved. */
interface EditCall {
  input: EditInput;
  resolved: ResolvedPath;
  context: ToolContext;
  engine: FileEngine;
}

/** Edit: open the file anchored and locked, read it, match, then commit. */
async function editResolved(call: EditCall) {
  const { input, resolved, context } = call;
  if (input.old_string === "") {
    throw new ToolError(
      "invalid_arguments",
      "Edit needs a non-empty old_string. To create a file use Write; to add text, include an existing neighbouring line in old_string and repeat it in new_string.",
    );
  }
  if (!resolved.exists) throw notFoundError("Edit", resolved, context);
  return call.engine.mutate({ toolName: "Edit", resolved, context, followLeaf: true }, async (file) => {
    if (!file.stats) throw notFoundError("Edit", resolved, context);
    assertRegularFile("Edit", resolved.displayPath, file.stats);
    // The write's temporary file is created on the thread pool while the
    // file is opened, read and matched (removed again if the edit fails).
    const temporary = file.prepareTemporary();
    try {
      // A large file is searched for old_string's probe chunk by chunk while it is read.
      const prescan = new EditPrescan(input.old_string);
      const content = await file.readWhole((prefix) => prescan.onChunk(prefix));
      let pendingHash: PendingHash | undefined;
      try {
        const plan = await planEdit({ input, file, content, context, prescanned: prescan.result(content.bytes) });
        const written = await file.commit({
          pieces: plan.pieces,
          countLines: plan.countLines,
          transfer: content.pooled ? undefined : ownedArrayBuffer(content.bytes),
          prepared: temporary,
        });
        pendingHash = written.pendingHash;
        return editResult(call, plan, written.version, pendingHash);
      } finally {
        await content.finish(pendingHash);
      }
    } finally {
      await temporary.discard();
    }
  });
}
