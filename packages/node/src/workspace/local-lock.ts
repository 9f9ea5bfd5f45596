/**
 * The cross-process lock of the local workspace: the file layer's lock file
 * `.<name>.agent-tools.lock` beside the target, the one Write, Edit and
 * Delete of the file tools take, so a lock held through the workspace and a
 * tool's write of the same file exclude each other across processes. A lock
 * left by a killed holder is broken by the next taker.
 */
import { SdkError, ToolError } from "@agent-tools/core";
import { WorkspaceError, type WorkspaceLock, type WorkspaceLockOptions, workspaceErrorFromErrno } from "@agent-tools/core/workspace";
import { acquireFileLock } from "@agent-tools/file-io/internal";
import { anchorParent } from "./anchored-parent.js";
import { abortError, throwIfAborted } from "./local-errors.js";

const OPERATION = "lock";
/** The port's default wait for a held lock. */
const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * Takes the lock of the absolute `target` (which need not exist; its
 * directory must). Rejects with `locked` when another holder keeps it past
 * `timeoutMs`, with an AbortError when `signal` aborts. `onRelease` runs
 * once, when the lock is released. A path below `root` whose directory
 * resolves outside it is refused (`out_of_bounds`).
 */
export async function lockLocalFile(target: string, root: string, options: WorkspaceLockOptions, onRelease: () => void): Promise<WorkspaceLock> {
  throwIfAborted(options.signal);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new SdkError("invalid_options", `${OPERATION} ${target}: timeoutMs must be a non-negative number of milliseconds (got ${String(timeoutMs)}).`);
  }
  const { directory, name } = await anchorParent(target, OPERATION, root);
  let held: { release(): void };
  try {
    held = await acquireFileLock(directory, name, { toolName: "Workspace lock", displayPath: target, signal: options.signal, timeoutMs });
  } catch (error) {
    directory.close();
    if (error instanceof ToolError && error.code === "cancelled" && options.signal) throw abortError(options.signal);
    if (error instanceof ToolError && error.code === "conflict") {
      throw new WorkspaceError(
        "locked",
        `${OPERATION} ${target}: another holder kept the lock for over ${timeoutMs} ms.`,
        { path: target, operation: OPERATION },
        { cause: error },
      );
    }
    throw workspaceErrorFromErrno(error, OPERATION, target);
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      held.release();
      directory.close();
      onRelease();
    },
  };
}
