import { ToolError } from "../errors.js";
import { isWithin, tryRealpath } from "./containment.js";
import type { PathIntent, RootCandidate } from "./path-policy-types.js";
import type { PathPolicyState } from "./policy-state.js";

const WRITE_INTENTS: ReadonlySet<PathIntent> = new Set(["write", "edit", "delete"]);
/** Intents refused in the uploads folder: writes, and a working directory (a command run there writes there). */
const REFUSED_INTENTS: ReadonlySet<PathIntent> = new Set([...WRITE_INTENTS, "cwd"]);

/** The uploads scope of a path, always read-only. */
export type UploadsCandidate = Extract<RootCandidate, { scope: "uploads" }>;

/**
 * The uploads folder's bases, declared then canonical (the same when it is
 * not reached through a symlink, or does not exist yet); empty without an
 * uploads scope. Read on each call: the folder may appear or move later.
 *
 * @example
 * uploadsBases(state); // ["/home/me/.agent-tools/uploads"]
 */
export function uploadsBases(state: PathPolicyState): string[] {
  if (state.uploadsDir === undefined) return [];
  const canonical = tryRealpath(state.uploadsDir) ?? state.uploadsDir;
  return canonical === state.uploadsDir ? [canonical] : [canonical, state.uploadsDir];
}

/**
 * The read-only root of the uploads folder (its canonical path when it
 * exists), or undefined without an uploads scope.
 *
 * @example
 * uploadsCandidate(state); // { scope: "uploads", rootPath: "/home/me/.agent-tools/uploads", access: "read" }
 */
export function uploadsCandidate(state: PathPolicyState): UploadsCandidate | undefined {
  const [canonical] = uploadsBases(state);
  return canonical === undefined ? undefined : { scope: "uploads", rootPath: canonical, access: "read" };
}

/**
 * The uploads policy by canonical path, for a path placed in another root:
 * a write intent whose target is in the uploads folder (reached through a
 * dataDir inside the workspace or a granted root, or a symlink) is refused,
 * and so are a working directory in it and deleting a folder that holds it. A workspace or
 * granted root the host placed inside the uploads folder keeps its own
 * access. Throws `ToolError` (`permission_denied`).
 *
 * @example
 * checkUploadsReach(state, workspace, "/repo/.agent-tools/uploads/a.txt", "write", "Write path"); // throws
 */
export function checkUploadsReach(state: PathPolicyState, candidate: RootCandidate, canonicalPath: string, intent: PathIntent, label: string): void {
  const uploads = uploadsCandidate(state);
  if (uploads === undefined || candidate.scope === "uploads" || !REFUSED_INTENTS.has(intent)) return;
  if (candidate.scope !== "external" && isWithin(uploads.rootPath, candidate.rootPath) && isWithin(candidate.rootPath, canonicalPath)) return;
  // Deleting a root itself is the file tools' refusal (unsupported_target), whatever it holds.
  const isRootItself = candidate.scope !== "external" && canonicalPath === candidate.rootPath;
  if (intent === "delete" && !isRootItself && canonicalPath !== uploads.rootPath && isWithin(canonicalPath, uploads.rootPath)) {
    throw new ToolError(
      "permission_denied",
      `${label} holds the read-only uploads folder (${uploads.rootPath}), so deleting it is refused. Delete single files outside it instead.`,
      { details: { scope: "uploads" } },
    );
  }
  if (!isWithin(uploads.rootPath, canonicalPath)) return;
  if (intent === "cwd") throw uploadsCwdRefusal(uploads, label);
  throw uploadsWriteRefusal(uploads, label);
}

/**
 * The refusal of the uploads folder (or a folder in it) as a working directory.
 *
 * @example
 * throw uploadsCwdRefusal(uploads, "Bash cwd");
 */
export function uploadsCwdRefusal(uploads: UploadsCandidate, label: string): ToolError {
  return new ToolError(
    "permission_denied",
    `${label}: the uploads folder (${uploads.rootPath}) is read-only and cannot be a working directory. Run the command from the workspace and pass the uploaded file's absolute path to it.`,
    { details: { scope: "uploads" } },
  );
}

/**
 * The refusal of a write intent in the uploads folder.
 *
 * @example
 * throw uploadsWriteRefusal(uploads, "Edit path");
 */
export function uploadsWriteRefusal(uploads: UploadsCandidate, label: string): ToolError {
  return new ToolError(
    "permission_denied",
    `${label} targets the read-only uploads folder (${uploads.rootPath}): files the user uploaded can be read (Read, List, Glob, Grep, Image) but not written, edited or deleted. Write a changed copy into the workspace instead.`,
    { details: { scope: "uploads" } },
  );
}
