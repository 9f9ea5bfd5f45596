/**
 * Checkpoint recording of Write, Edit and Delete: when a call belongs to a
 * checkpoint (`context.checkpointId`) and the host gave a recorder
 * (`ports.fileCheckpoints`), every path a change touches is recorded before
 * the change (its pre-image) and after it (the state it left). The tools call
 * this inside their per-file critical section (the mutation queue and the
 * cross-process lock), so the pre-image is exactly the state the change
 * replaced and the post-image exactly the state it wrote.
 */
import { type FileCheckpointRecorder, ToolError, type ToolContext } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";

/** The recorder and checkpoint of a call, when it records at all. */
function recorderOf(context: ToolContext): { recorder: FileCheckpointRecorder; checkpointId: string } | undefined {
  const recorder = context.ports.fileCheckpoints;
  const checkpointId = context.checkpointId;
  if (recorder === undefined || typeof checkpointId !== "string" || checkpointId === "") return undefined;
  return { recorder, checkpointId };
}

/**
 * Runs `change` with every path in `paths` recorded around it: `beforeChange`
 * for each first (a failure refuses the change, which then never runs), and
 * `afterChange` for each once the change settled, failed or not (a failure
 * there is logged: the change already happened). Without a checkpoint or a
 * recorder, `change` simply runs.
 *
 * @param paths canonical absolute paths, parents before their children
 * @param target what the result names (`displayPath`) and, when it is not the local disk, the workspace the paths are in (the recorder reads them through it)
 */
export async function withCheckpointRecording<T>(
  context: ToolContext,
  target: { readonly displayPath: string; readonly workspace?: Workspace },
  paths: () => Promise<readonly string[]> | readonly string[],
  change: () => Promise<T>,
): Promise<T> {
  const { displayPath, workspace } = target;
  const recording = recorderOf(context);
  if (recording === undefined) return change();
  const { recorder, checkpointId } = recording;
  const requests = (await paths()).map((file) => ({
    checkpointId,
    path: file,
    toolName: context.toolName,
    callId: context.callId,
    ...(workspace === undefined ? {} : { workspace }),
  }));
  for (const request of requests) {
    try {
      await recorder.beforeChange(request);
    } catch (error) {
      throw new ToolError(
        "unavailable",
        `${context.toolName} refused: the previous state of ${displayPath} could not be saved in checkpoint ${JSON.stringify(checkpointId)} (${error instanceof Error ? error.message : String(error)}), so the change could not be undone later. Nothing was changed. Retry; if it keeps failing, ask the user to check the host's checkpoint store.`,
        { details: { path: displayPath, checkpointId } },
      );
    }
  }
  try {
    return await change();
  } finally {
    for (const request of requests) {
      try {
        await recorder.afterChange(request);
      } catch (error) {
        context.logger.warn("a file checkpoint could not record the state a change left", {
          checkpointId,
          path: request.path,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
}
