/**
 * The checks and the answer Write shares between the local disk and a
 * workspace, so that both refuse with the same words and answer alike.
 */
import { ToolError } from "@agent-tools/core";
import { preview } from "../shared/text-preview.js";

/** What the checks read of a resolved Write path. */
interface WritePath {
  readonly relativePath: string;
  readonly scope: string;
  readonly displayPath: string;
  readonly absolutePath: string;
}

/** Refuses a Write to the root directory of a workspace or write root. */
export function assertNotWriteRoot(resolved: WritePath): void {
  if (resolved.relativePath === "" && resolved.scope !== "external") {
    throw new ToolError(
      "unsupported_target",
      `Write failed: ${resolved.displayPath} is the root directory. Directories are created implicitly; pass a file path such as path="notes.md".`,
    );
  }
}

/** Refuses a Write through a symlink whose target does not exist. */
export function assertNotDanglingWrite(displayPath: string, target: { readonly exists: boolean; readonly isSymlink: boolean }): void {
  if (!target.exists && target.isSymlink) {
    throw new ToolError("unsupported_target", `Write failed: ${displayPath} is a dangling symlink. Delete it first or write to the real path.`);
  }
}

/** The error of a Write whose path is a directory. */
export function writeDirectoryError(displayPath: string): ToolError {
  return new ToolError(
    "not_a_file",
    `Write failed: ${displayPath} is a directory. Directories are created implicitly when you write a file inside them: pass a file path such as path="${displayPath}/notes.md".`,
  );
}

/** What a committed Write reports. */
export interface WriteAnswer {
  readonly resolved: WritePath;
  readonly content: string;
  readonly existedBefore: boolean;
  readonly bytesWritten: number;
  readonly version: { readonly mtimeMs: number; readonly totalLines: number };
  /** Absent while the content is still hashed off the main thread. */
  readonly contentHash: string | undefined;
  readonly autoRead: boolean;
}

/** The result of a committed Write: the message and its details. */
export function writeResult(answer: WriteAnswer) {
  const { resolved, content, existedBefore, autoRead } = answer;
  const verb = existedBefore ? "updated" : "created";
  return {
    content: `File ${verb} successfully at: ${resolved.displayPath}${autoRead ? "\nautoRead=full" : ""}`,
    details: {
      kind: "write" as const,
      path: resolved.displayPath,
      absolutePath: resolved.absolutePath,
      existedBefore,
      bytesWritten: answer.bytesWritten,
      mtimeMs: answer.version.mtimeMs,
      ...(answer.contentHash === undefined ? {} : { contentHash: answer.contentHash }),
      totalLines: answer.version.totalLines,
      preview: preview(content),
      autoRead,
    },
  };
}
