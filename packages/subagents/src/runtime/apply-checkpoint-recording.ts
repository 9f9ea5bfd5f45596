/**
 * Checkpoint recording of a worktree apply: when the Agent call runs inside a
 * file checkpoint (`context.checkpointId` and `ports.fileCheckpoints`), every
 * parent file the apply may touch gets its pre-image recorded before the
 * first attempt and the state the apply left recorded after it, so rewinding
 * the checkpoint undoes the subagent's changes as it undoes Write, Edit and
 * Delete.
 */
import path from "node:path";
import { type FileCheckpointRecorder, type ToolContext, canonicalizeTarget, readPatchPath } from "@agent-tools/core";
import type { SubagentApplyOutcome, SubagentApplyRecorder } from "../ports/subagent-worktrees.js";
import type { PatchSection } from "./git-subagent-worktree-patch.js";

const RENAME_OR_COPY = /^(?:rename|copy) (?:from|to) (.*)$/;
/** Where a section's extended header (mode, rename and index lines) ends. */
const HEADER_END = /^(?:--- |\+\+\+ |@@ |GIT binary patch|Binary files )/;

/** The path on a `rename from`/`rename to` line, unquoted. */
function headerPath(text: string): string {
  return text.startsWith('"') ? readPatchPath(text).path : text;
}

/** Repository-relative paths a section touches: its own and, should the patch carry renames or copies, both of their sides. */
function sectionPaths(section: PatchSection): string[] {
  const out = [section.path];
  for (const line of section.text.split("\n").slice(1)) {
    if (HEADER_END.test(line)) break;
    const match = RENAME_OR_COPY.exec(line);
    if (match !== null) out.push(headerPath(match[1]!));
  }
  return out;
}

/**
 * `absolute` canonical as the file tools key it, a symlink in the last part
 * kept (git replaces a link, never writes through it); as given when it
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
 * The canonical absolute path, in the parent's work tree at `root`, of every
 * file the sections may touch (modified, created, deleted, both sides of a
 * rename), once each, in patch order.
 */
export async function applyTouchedPaths(root: string, sections: readonly PatchSection[]): Promise<string[]> {
  const relative = [...new Set(sections.flatMap(sectionPaths))];
  return [...new Set(relative.map((file) => canonicalPath(path.join(root, ...file.split("/")))))];
}

/**
 * Runs `apply` between the recorder's `before` and `after` over `paths`.
 * A rejected `before` means `apply` never runs: the outcome is `failed` with
 * the reason. `after` runs however `apply` ended (a rejection of `after` is
 * dropped). Without a recorder, `apply` simply runs.
 */
export async function withApplyRecording(
  recorder: SubagentApplyRecorder | undefined,
  paths: () => Promise<readonly string[]>,
  apply: () => Promise<SubagentApplyOutcome>,
): Promise<SubagentApplyOutcome> {
  if (recorder === undefined) return apply();
  const recorded = await paths();
  try {
    await recorder.before(recorded);
  } catch (error) {
    return {
      applyStatus: "failed",
      copiedFiles: [],
      deletedFiles: [],
      conflictFiles: [],
      error: `The subagent's changes were not applied, nothing in the workspace changed: ${messageOf(error)}`,
    };
  }
  try {
    return await apply();
  } finally {
    await recorder.after(recorded).catch(() => undefined);
  }
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
  const request = (file: string) => ({ checkpointId, path: file, toolName: context.toolName, callId: context.callId });
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
