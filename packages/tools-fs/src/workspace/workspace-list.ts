/**
 * List and Glob on a workspace that is not the local disk: the walk goes
 * through the workspace's file system (see `walkWorkspaceTree`); Glob runs
 * one `rg --files` in the workspace instead when it has ripgrep (with
 * anchored listings, each matched name is found again in its folder's
 * listing: `filesListedAgain`). The answer
 * is rendered by the local tools' own renderers.
 */
import type { ToolContext, ToolOutput } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { type GlobDetails, compileGlob, renderGlob } from "../search/glob-render.js";
import { type ListDetails, renderList, renderListOfFile } from "../search/list-render.js";
import { DEFAULT_PROGRESS_INTERVAL_MS, globProgress } from "../search/search-progress.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { workspaceToolError } from "./workspace-errors.js";
import { filesListedAgain } from "./workspace-listed-files.js";
import { listFilesWithRipgrep } from "./workspace-ripgrep-files.js";
import { resolveWorkspaceSearchBase } from "./workspace-search-base.js";
import { walkWorkspaceTree } from "./workspace-walk.js";

/** List's arguments (after defaults). */
interface ListInput {
  path?: string;
  depth: number;
  offset: number;
  max_results: number;
}

/** List in the workspace; undefined when the path is one of the host's own folders (the local List serves it). */
export async function listInWorkspace(
  workspace: Workspace,
  input: ListInput,
  context: ToolContext,
  environment: FsToolEnvironment,
): Promise<ToolOutput<ListDetails> | undefined> {
  const base = await resolveWorkspaceSearchBase({ toolName: "List", intent: "list", context, workspace }, input.path);
  if (!base) return undefined;
  if (base.fileName !== undefined) return renderListOfFile(base.resolved.displayPath, input.depth);
  let entries;
  try {
    entries = await walkWorkspaceTree(workspace.fs, workspace.root, base.directory, {
      maxDepth: input.depth,
      includeAll: true,
      signal: context.signal,
      caches: environment.searchCaches,
      exclude: base.excluded,
    });
  } catch (error) {
    throw await workspaceToolError({ toolName: "List", workspace, context }, error, base.resolved);
  }
  return renderList(entries, input, base.displayDirectory);
}

/** Glob's arguments (after defaults). */
interface GlobInput {
  pattern: string;
  path?: string;
  offset: number;
  max_results: number;
}

/** Glob in the workspace; undefined when the path is one of the host's own folders (the local Glob serves it). */
export async function globInWorkspace(
  workspace: Workspace,
  input: GlobInput,
  context: ToolContext,
  options: { environment: FsToolEnvironment; progressIntervalMs: number | undefined },
): Promise<ToolOutput<GlobDetails> | undefined> {
  const { environment, progressIntervalMs } = options;
  const pattern = input.pattern.replace(/\\/g, "/").replace(/^\.\//, "");
  const base = await resolveWorkspaceSearchBase({ toolName: "Glob", intent: "search", context, workspace }, input.path);
  if (!base) return undefined;
  const matcher = compileGlob(pattern, input.pattern);
  const matched: string[] = [];
  const progress = globProgress(progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS, (update) => context.onUpdate(update));
  const { counts } = progress;
  try {
    // With ripgrep in the workspace: one `rg --files` run, not a directory read per round trip.
    const listed = await listFilesWithRipgrep(workspace, base.directory, base.excluded, context.signal);
    if (listed) {
      counts.filesWalked = listed.length;
      const hits = listed.filter((file) => matcher.match(file));
      // Anchored listings: a name rg found through a folder swapped for a symlink to outside is not shown.
      matched.push(...(workspace.capabilities.anchoredOpens ? await filesListedAgain(workspace.fs, base.directory, hits, context.signal) : hits));
      counts.totalMatches = matched.length;
    } else
      await walkWorkspaceTree(workspace.fs, workspace.root, base.directory, {
        signal: context.signal,
        caches: environment.searchCaches,
        exclude: base.excluded,
        collect: false,
        onFile: (file) => {
          counts.filesWalked += 1;
          if (matcher.match(file)) {
            counts.totalMatches += 1;
            matched.push(file);
          }
          progress.changed();
        },
        onDirectory: () => {
          counts.directoriesWalked += 1;
          progress.changed();
        },
      });
  } catch (error) {
    throw await workspaceToolError({ toolName: "Glob", workspace, context }, error, base.resolved);
  } finally {
    progress.stop();
  }
  return renderGlob(matched, input, base.displayDirectory);
}
