/**
 * The paths of a parsed patch: each resolved through the path policy with
 * the intent of its role (added and move destinations as Write, updated
 * as Edit, deleted as Delete), placed on the local disk or in the
 * workspace, refused when two name the same file, then held all at once in
 * one fixed order (sorted canonical keys, so two patches sharing files
 * never wait on each other in opposite orders).
 */
import { type PathIntent, ToolError, type ToolContext } from "@agent-tools/core";
import type { PatchOperation } from "@agent-tools/core/patch";
import type { FileEngine } from "../file-engine/file-engine.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { isWorkspaceScope, remoteWorkspace } from "../workspace/workspace-call.js";
import type { HeldPatchFile, PatchPathHolder, PatchRole } from "./held-file.js";
import { localHolder } from "./local-held-file.js";
import { workspaceHolder } from "./workspace-held-file.js";

/** One path of a patch and how it is touched. */
export interface PatchPathRequest {
  readonly path: string;
  readonly role: PatchRole;
}

/**
 * The most hunks one patch may hold: each is searched for in its file and
 * checked unique there (about 2 ms per hunk on a 200,000-line file), on the
 * event loop, while every file of the patch is locked.
 */
export const MAX_PATCH_HUNKS = 1000;

/** Every path the operations touch, in order (an update's move destination right after its source); refuses a patch over the path bound (the parser, given MAX_PATCH_HUNKS, bounds the hunks). */
export function patchPathRequests(operations: readonly PatchOperation[]): PatchPathRequest[] {
  const requests: PatchPathRequest[] = [];
  for (const operation of operations) {
    requests.push({ path: operation.path, role: operation.kind });
    if (operation.kind === "update" && operation.moveTo !== undefined) requests.push({ path: operation.moveTo, role: "move-destination" });
  }
  return requests;
}

/** The most paths one patch may touch (a move counts twice). */
export const MAX_PATCH_FILES = 256;

const INTENTS: Readonly<Record<PatchRole, PathIntent>> = { add: "write", "move-destination": "write", update: "edit", delete: "delete" };

/** What holding a patch's paths needs of its call. */
export interface PatchHoldCall {
  readonly context: ToolContext;
  readonly environment: FsToolEnvironment;
  readonly engine: FileEngine;
  /** Create a new file's missing parent directories when it is held (false for a check that changes nothing). */
  readonly createParents: boolean;
}

/** The error of a root directory named as a file. */
function rootError(displayPath: string): ToolError {
  return new ToolError(
    "unsupported_target",
    `ApplyPatch failed: ${displayPath} is the root directory, not a file. Name a file inside it, such as "*** Add File: notes.md".`,
  );
}

function danglingError(displayPath: string): ToolError {
  return new ToolError("unsupported_target", `ApplyPatch failed: ${displayPath} is a dangling symlink. Delete it first or name the real path.`);
}

/**
 * Resolves every request (throwing the path policy's `ToolError` for a path
 * outside the roots, a read-only root, `.git` ...) into its holder.
 */
export async function patchPathHolders(requests: readonly PatchPathRequest[], call: PatchHoldCall): Promise<PatchPathHolder[]> {
  const { context } = call;
  // Every file stays open and locked until the patch is written: a bound on how many one call holds.
  if (requests.length > MAX_PATCH_FILES) {
    throw new ToolError(
      "invalid_arguments",
      `ApplyPatch refused: the patch touches ${requests.length} paths, more than the ${MAX_PATCH_FILES} one call may change. Split it into several patches of at most ${MAX_PATCH_FILES} files each.`,
      { details: { paths: requests.length, limit: MAX_PATCH_FILES } },
    );
  }
  const workspace = remoteWorkspace(context);
  const holders: PatchPathHolder[] = [];
  for (const request of requests) {
    const resolved = context.paths.resolve(request.path, { intent: INTENTS[request.role], label: "ApplyPatch path" });
    if (resolved.relativePath === "" && resolved.scope !== "external") throw rootError(resolved.displayPath);
    const creates = request.role === "add" || request.role === "move-destination";
    if (workspace !== undefined && isWorkspaceScope(resolved)) {
      const holder = await workspaceHolder(resolved, request.role, { workspace, context, environment: call.environment }, call);
      if (creates && holder.target.isSymlink && !holder.target.exists) throw danglingError(resolved.displayPath);
      holders.push(holder);
    } else {
      if (creates && resolved.isSymlink && !resolved.exists) throw danglingError(resolved.displayPath);
      holders.push(localHolder(resolved, request.role, call, call));
    }
  }
  const seen = new Map<string, PatchPathHolder>();
  for (const holder of holders) {
    // Two holds of one file, or of one queue key (a link and its target), would wait on each other for ever.
    const earlier = seen.get(holder.order) ?? seen.get(holder.queueKey);
    if (earlier) {
      throw new ToolError(
        "invalid_arguments",
        `ApplyPatch refused: ${earlier.resolved.displayPath} and ${holder.resolved.displayPath} are the same file. Put all changes of one file in one operation and send the patch again.`,
        { details: { paths: [earlier.resolved.displayPath, holder.resolved.displayPath] } },
      );
    }
    seen.set(holder.order, holder);
    seen.set(holder.queueKey, holder);
  }
  return holders;
}

/**
 * Holds every path (in sorted order, each hold nested in the previous one)
 * and runs `run` with the held files in the holders' own order.
 */
export function holdAll<T>(holders: readonly PatchPathHolder[], run: (files: HeldPatchFile[]) => Promise<T>): Promise<T> {
  const sorted = [...holders].sort((left, right) => (left.order < right.order ? -1 : left.order > right.order ? 1 : 0));
  const held = new Map<PatchPathHolder, HeldPatchFile>();
  const step = (index: number): Promise<T> => {
    if (index === sorted.length) return run(holders.map((holder) => held.get(holder)!));
    const holder = sorted[index]!;
    return holder.hold((file) => {
      held.set(holder, file);
      return step(index + 1);
    });
  };
  return step(0);
}
