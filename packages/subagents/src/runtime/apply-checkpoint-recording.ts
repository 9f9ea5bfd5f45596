/**
 * Checkpoint recording of a worktree apply: when the Agent call runs inside a
 * file checkpoint (`context.checkpointId` and `ports.fileCheckpoints`), every
 * parent file the apply writes gets its pre-image recorded before the first
 * write and the state the apply left recorded after the last (before the
 * apply's journal is removed), so rewinding the checkpoint undoes the
 * subagent's changes as it undoes Write, Edit and Delete.
 */
import path from "node:path";
import type { FileCheckpointRecorder, ToolContext } from "@agent-tools/core";
import { canonicalizeTarget } from "@agent-tools/core/internal";
import type { SubagentApplyRecorder } from "../ports/subagent-worktrees.js";

/**
 * `absolute` canonical as the file tools key it, a symlink in the last part
 * kept (the apply replaces a link, never writes through it); as given when it
 * cannot be resolved (a symlink loop).
 */
function canonicalPath(absolute: string): string {
  try {
    return canonicalizeTarget(absolute, { keepLeafSymlink: true }).canonicalPath;
  } catch {
    return absolute;
  }
}

/**
 * The canonical absolute path, in the parent's work tree at `root`, of each
 * repository-relative path an apply writes, as the recorder gets them.
 */
export function recordedPaths(root: string, relativePaths: readonly string[]): string[] {
  return [...new Set(relativePaths.map((file) => canonicalPath(path.join(root, ...file.split("/")))))];
}

/**
 * A {@link SubagentApplyRecorder} that saves the files in the Agent call's
 * file checkpoint (`beforeChange` / `afterChange` with the call's tool name
 * and id), or `undefined` when the call is in no checkpoint or the host gave
 * no recorder. When one path cannot be recorded, the paths recorded so far
 * get their `afterChange` (they are unchanged) and `before` rejects, naming
 * the path and the checkpoint. `after` never rejects: failures are logged.
 *
 * @example
 * const recorder = createApplyCheckpointRecorder(context);
 * const outcome = await worktrees.apply(worktree, { recorder });
 */
export function createApplyCheckpointRecorder(context: ToolContext): SubagentApplyRecorder | undefined {
  const checkpoints: FileCheckpointRecorder | undefined = context.ports.fileCheckpoints;
  const checkpointId = context.checkpointId;
  if (checkpoints === undefined || typeof checkpointId !== "string" || checkpointId === "") return undefined;
  // On a non-local workspace the recorder reads the files through it (the paths are the workspace's).
  const workspace = context.ports.workspace?.capabilities.localPaths === false ? context.ports.workspace : undefined;
  const request = (file: string) => ({
    checkpointId,
    path: file,
    toolName: context.toolName,
    callId: context.callId,
    ...(workspace === undefined ? {} : { workspace }),
  });
  const after = async (paths: readonly string[]) => {
    for (const file of paths) {
      try {
        await checkpoints.afterChange(request(file));
      } catch (error) {
        context.logger.warn("a file checkpoint could not record the state a subagent apply left", { checkpointId, path: file, error: messageOf(error) });
      }
    }
  };
  return {
    async before(paths) {
      for (const [index, file] of paths.entries()) {
        try {
          await checkpoints.beforeChange(request(file));
        } catch (error) {
          await after(paths.slice(0, index));
          throw new Error(
            `the previous state of ${file} could not be saved in checkpoint ${JSON.stringify(checkpointId)} (${messageOf(error)}), so the apply could not be undone later. The changes stay in the subagent's worktree; retry, and if it keeps failing ask the user to check the host's checkpoint store.`,
            { cause: error },
          );
        }
      }
    },
    after,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
