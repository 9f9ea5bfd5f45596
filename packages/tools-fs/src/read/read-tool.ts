import { ToolError, defineTool, type ResolvedPath, type ToolContext, type ToolOutput } from "@agent-tools/core";
import { notFoundError, onResolvedPath } from "../shared/fs-errors.js";
import { anchorTarget, openTarget } from "../file-engine/anchored-target.js";
import { assertRegularFile, descriptorPath } from "../shared/regular-file.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import type { PendingHash } from "../fast-io/hash-worker.js";
import { type ReadSource, readVersionedHandle } from "./read-formats.js";
import { type ReadInput, readInputSchema } from "./read-input.js";
import { type ReadDetails, type ReadPathDetails, readSource } from "./read-source.js";
import { remoteWorkspace } from "../workspace/workspace-call.js";
import { readInWorkspace } from "../workspace/workspace-read.js";

export { readInputSchema };
export type { ReadInput, ReadDetails, ReadPathDetails };

const DESCRIPTION = `Reads a file as numbered lines, at most 200 KB; when more remain, continue with start_line=<next line>. An unchanged range read again returns a short "unchanged" note.
Images (png, jpg, gif, webp, avif, bmp, svg, ico; up to 25 MB) come as images, PDFs as text by page, .docx/.xlsx/.xlsm/.xltx/.xltm as text (a section per sheet), notebooks by cell, archives (zip, jar, tar, tar.gz) as a listing of the first 200 entries. Binary files are refused.
Read a file before you Write or Edit it.`;

/** Creates the Read tool for one bundle. */
export function createReadTool(environment: FsToolEnvironment) {
  return defineTool<typeof readInputSchema, ReadDetails>({
    name: "Read",
    description: DESCRIPTION,
    inputSchema: readInputSchema,
    metadata: {
      groupId: "fs",
      kind: "read",
      isReadOnly: true,
      displayCategory: "file",
      annotations: { readOnly: true, listedInPlanMode: true, openWorld: false },
    },
    async execute(input, context) {
      const workspace = remoteWorkspace(context);
      if (workspace) {
        const local = (resolved: ResolvedPath) =>
          onResolvedPath({ toolName: "Read", path: input.path, intent: "read", context }, () => readResolved(input, resolved, context, environment));
        return readInWorkspace({ workspace, input, context, environment, local });
      }
      return onResolvedPath({ toolName: "Read", path: input.path, intent: "read", context }, (resolved) => readResolved(input, resolved, context, environment));
    },
  });
}

async function readResolved(input: ReadInput, resolved: ResolvedPath, context: ToolContext, environment: FsToolEnvironment): Promise<ToolOutput<ReadDetails>> {
  if (!resolved.exists) throw notFoundError("Read", resolved, context);
  const target = anchorTarget(resolved, { toolName: "Read", followLeaf: true });
  try {
    if (!target.stats) throw notFoundError("Read", resolved, context);
    if (target.stats.isDirectory()) {
      throw new ToolError(
        "not_a_file",
        `Read failed: ${resolved.displayPath} is a directory. Use List path="${resolved.displayPath}" to see its entries, then Read a file inside it.`,
      );
    }
    assertRegularFile("Read", resolved.displayPath, target.stats);
    const { handle, stats } = await openTarget("Read", resolved.displayPath, target);
    // A background hash of the file keeps it open until the worker is done with it.
    let hashing: PendingHash | undefined;
    try {
      const source: ReadSource = {
        handle,
        key: target.canonicalPath,
        path: target.directory.anchored ? descriptorPath(handle) : target.entryPath,
        hash: environment.fastIo.contentHash,
        whole: () => readVersionedHandle(handle, environment.fastIo.contentHash),
        hashLater: (version, prefix) => {
          hashing = environment.fastIo.hashFileOffThread(handle.fd, version, prefix);
          return hashing;
        },
      };
      return await readSource(source, stats.size, { input, resolved, context, environment });
    } finally {
      if (hashing) void hashing.released.then(() => handle.close()).catch(() => undefined);
      else await handle.close();
    }
  } finally {
    target.close();
  }
}
