/**
 * Small helpers of the local workspace tests: an expected rejection, an
 * expected WorkspaceError code, the file layer's sidecars in a directory.
 */
import { readdirSync } from "node:fs";
import { expect } from "vitest";
import { WorkspaceError, type WorkspaceErrorCode } from "@agent-tools/core/workspace";
import { isToolSidecarName } from "@agent-tools/file-io/internal";

/** What `run` rejected with; throws when it succeeded. */
export async function rejection(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection, but the call succeeded");
}

/** Checks that `run` rejects with a WorkspaceError of `code`. */
export async function expectCode(run: () => unknown, code: WorkspaceErrorCode): Promise<WorkspaceError> {
  const error = await rejection(run);
  expect(error, String(error)).toBeInstanceOf(WorkspaceError);
  expect((error as WorkspaceError).code, (error as Error).message).toBe(code);
  return error as WorkspaceError;
}

/** The temporary and lock files of the file layer in `directory`. */
export const sidecars = (directory: string) => readdirSync(directory).filter((name) => isToolSidecarName(name));
