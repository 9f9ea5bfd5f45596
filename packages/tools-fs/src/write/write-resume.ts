/**
 * Write's `resume`: for a Write that started before a crash and has no
 * recorded outcome, the file tells whether it happened. Holding exactly the
 * call's content: done (nothing written again); anything else: run it again
 * (writing the same content twice leaves the file as one Write does).
 */
import type { ToolContext } from "@agent-tools/core";
import type { ToolResumeDecision } from "@agent-tools/core/durable";
import type { FileEngine } from "../file-engine/file-engine.js";
import { readForResume, recordResumed } from "../shared/resume-read.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { writeResult } from "./write-checks.js";

/** The details of a Write result (`WriteDetails`). */
type WriteAnswerDetails = ReturnType<typeof writeResult>["details"];

/** What Write's resume needs of its bundle. */
export interface WriteResumeParts {
  readonly environment: FsToolEnvironment;
  readonly engine: FileEngine;
}

/**
 * Decides an interrupted Write: `done` with Write's own result (saying it
 * was already written) when the file holds exactly `content`, `run` when it
 * does not or is absent, `unknown` with a note when the path cannot be read
 * as Write would reach it.
 */
export async function resumeWrite(
  input: { path: string; content: string },
  context: ToolContext,
  parts: WriteResumeParts,
): Promise<ToolResumeDecision<WriteAnswerDetails>> {
  try {
    const content = Buffer.from(input.content, "utf8");
    // A file of another size cannot hold the content: it is not read (the model may have made it huge).
    const found = await readForResume({ toolName: "Write", intent: "write", path: input.path, context, ...parts, maxBytes: content.length });
    if (!found.exists || "oversize" in found || !found.bytes.equals(content)) return { action: "run" };
    recordResumed(parts.environment, found);
    const answer = writeResult({
      resolved: found.resolved,
      content: input.content,
      existedBefore: true,
      bytesWritten: found.bytes.length,
      version: found.version,
      contentHash: found.version.contentHash,
      autoRead: false,
    });
    const text = `File already written at: ${found.resolved.displayPath} (this Write was interrupted after it wrote; the file holds exactly its content, so it was not written again)`;
    return { action: "done", output: { ...answer, content: text } };
  } catch (error) {
    return { action: "unknown", note: `Write could not check ${input.path} before running again: ${messageOf(error)}` };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
