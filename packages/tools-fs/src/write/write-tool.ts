import { defineTool, type ResolvedPath, type ToolContext } from "@agent-tools/core";
import type { EditDiagnosticsDetails } from "@agent-tools/core/diagnostics";
import { z } from "zod";
import { ownedArrayBuffer } from "../fast-io/hash-worker.js";
import type { FullTextSnapshot } from "../shared/file-state.js";
import { onResolvedPath } from "../shared/fs-errors.js";
import { linesFromLineFeeds } from "../shared/line-ending-count.js";
import type { MutationHashOptions, WrittenVersion } from "../file-engine/atomic-commit.js";
import { FileEngine } from "../file-engine/file-engine.js";
import type { LockedFile } from "../file-engine/locked-file.js";
import { assertRegularFile } from "../shared/regular-file.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { AUTO_READ_LINE_LIMIT, primeFullSnapshot } from "./auto-prime.js";
import { assertNotDanglingWrite, assertNotWriteRoot, writeDirectoryError, writeResult } from "./write-checks.js";
import { remoteWorkspace } from "../workspace/workspace-call.js";
import { writeInWorkspace } from "../workspace/workspace-write.js";
import { resumeWrite } from "./write-resume.js";

/** Write's input schema (path first on purpose: models stream it before the content). */
export const writeInputSchema = z.object({
  path: z.string().describe("A file, never a directory: workspace-relative, root://<alias>/... (write roots only), or absolute inside the workspace."),
  content: z.string(),
  mode: z.string().optional().describe("Legacy; ignored."),
});

/** Details of a Write result. */
export interface WriteDetails {
  kind: "write";
  path: string;
  absolutePath: string;
  existedBefore: boolean;
  bytesWritten: number;
  mtimeMs: number;
  /**
   * FNV-1a 64 of the content (16 hex characters). Absent when the content
   * was above `inlineHashLimitBytes` and is hashed off the main thread after
   * the write: the file state records it when it arrives.
   */
  contentHash?: string;
  totalLines: number;
  preview: string;
  autoRead: boolean;
  /** What the change introduced, when a diagnostics provider (a language server plugin) answered. */
  diagnostics?: EditDiagnosticsDetails;
}

const DESCRIPTION = `Creates a file or replaces its whole content; parent directories are created. For partial changes prefer Edit.
- An existing file must have been Read in full: an unread one of at most ${AUTO_READ_LINE_LIMIT} lines is read automatically (autoRead=full); a longer one needs a Read covering every line.
- If the file changed on disk since your last Read, Write refuses (stale_file): Read it again, then retry.`;

/** Creates the Write tool for one bundle. */
export function createWriteTool(environment: FsToolEnvironment, options: MutationHashOptions = {}) {
  const engine = new FileEngine(environment, options);
  return defineTool<typeof writeInputSchema, WriteDetails>({
    name: "Write",
    description: DESCRIPTION,
    inputSchema: writeInputSchema,
    metadata: {
      groupId: "fs",
      kind: "write",
      isReadOnly: false,
      displayCategory: "file",
      annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false, listedInPlanMode: false },
    },
    // Running it again leaves the file as one run does; resume tells a call that already happened from one that did not.
    effects: "idempotent",
    resume: (input, context) => resumeWrite(input, context, { environment, engine }),
    async execute(input, context) {
      const workspace = remoteWorkspace(context);
      if (workspace) {
        const local = (resolved: ResolvedPath) =>
          onResolvedPath({ toolName: "Write", path: input.path, intent: "write", context }, () =>
            writeResolved({ content: input.content, resolved, context, environment, engine }),
          );
        return writeInWorkspace({ workspace, input, context, environment, local });
      }
      return onResolvedPath({ toolName: "Write", path: input.path, intent: "write", context }, (resolved) =>
        writeResolved({ content: input.content, resolved, context, environment, engine }),
      );
    },
  });
}

/** One Write call, resolved. */
interface WriteCall {
  content: string;
  resolved: ResolvedPath;
  context: ToolContext;
  environment: FsToolEnvironment;
  engine: FileEngine;
}

async function writeResolved(call: WriteCall) {
  const { resolved, context } = call;
  assertNotWriteRoot(resolved);
  assertNotDanglingWrite(resolved.displayPath, resolved);
  return call.engine.mutate({ toolName: "Write", resolved, context, followLeaf: true, createParents: true }, (file) => writeLocked(call, file));
}

/** Write: check the existing file is the version the model saw, then commit the new content. */
async function writeLocked(call: WriteCall, file: LockedFile) {
  const { content, resolved, context, environment } = call;
  const existing = file.stats;
  if (existing?.isDirectory()) throw writeDirectoryError(resolved.displayPath);
  if (existing) assertRegularFile("Write", resolved.displayPath, existing);
  let autoRead = false;
  if (existing) {
    let expected: FullTextSnapshot | undefined = file.recorded().fullText;
    if (!expected) {
      expected = await primeFullSnapshot(file, context, environment);
      autoRead = true;
    }
    try {
      await file.assertUnchanged(expected, existing, () => file.readBytes());
    } catch (error) {
      if (autoRead) file.forget();
      throw error;
    }
  }
  // Large content is encoded into pooled memory (fresh memory is slow to touch first), handed back
  // once the off-thread hash has copied it.
  const encoded = await file.encodeText(content);
  const bytes = encoded.bytes;
  const size = bytes.length;
  let written: WrittenVersion;
  try {
    const countLines = () => linesFromLineFeeds(file.countLineEndings(bytes).lf, bytes.length, bytes[bytes.length - 1] ?? -1);
    written = await file.commit({ pieces: [bytes], countLines, transfer: encoded.pooled ? undefined : ownedArrayBuffer(bytes) });
  } catch (error) {
    encoded.release();
    if (autoRead) file.forget();
    throw error;
  }
  const { version, pendingHash } = written;
  if (pendingHash) encoded.releaseWhen(pendingHash.released);
  else encoded.release();
  return writeResult({
    resolved,
    content,
    existedBefore: existing !== undefined,
    bytesWritten: size,
    version,
    contentHash: pendingHash ? undefined : version.contentHash,
    autoRead,
  });
}
