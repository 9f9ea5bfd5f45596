import { ToolError } from "../errors.js";
import { rootStatus } from "./additional-roots.js";
import { tryRealpath } from "./containment.js";
import type { PathIntent, RootCandidate } from "./path-policy-types.js";
import type { PathPolicyState } from "./policy-state.js";
import { uploadsCwdRefusal, uploadsWriteRefusal } from "./uploads-root.js";

const WRITE_INTENTS: ReadonlySet<PathIntent> = new Set(["write", "edit", "delete"]);

/**
 * Refuses a root that changed since the policy was built: a workspace
 * whose declared directory resolves elsewhere now (`invalid_workdir`, not
 * recoverable), or a granted root that is missing or moved
 * (`permission_denied`). Skill and external roots are not checked.
 *
 * @example
 * checkRootLive(state, { scope: "workspace", rootPath: state.workdir, access: "write" }, "Read path"); // throws once /repo moved
 */
export function checkRootLive(state: PathPolicyState, candidate: RootCandidate, label: string): void {
  if (candidate.scope === "workspace") {
    if (tryRealpath(state.declaredWorkdir) !== state.workdir) {
      throw new ToolError(
        "invalid_workdir",
        `The workspace directory ${state.declaredWorkdir} no longer resolves to ${state.workdir}; every access is refused.`,
        { recoverable: false },
      );
    }
    return;
  }
  if (candidate.scope !== "root") return;
  const status = rootStatus(candidate.root);
  if (status === "active") return;
  throw new ToolError(
    "permission_denied",
    `${label} targets root://${candidate.root.alias}, which is ${status === "missing" ? "missing" : "changed since it was granted (its path or symlink target moved)"}; every access to it is refused until the host grants it again.`,
    { details: { alias: candidate.root.alias, status } },
  );
}

/**
 * Refuses `root://` and the uploads folder as a working directory: granted
 * roots are for the file tools only, and uploads are read-only. Throws `ToolError` (`permission_denied`).
 *
 * @example
 * checkWorkingDirectory(docsRoot, "cwd", "Bash cwd"); // throws
 */
export function checkWorkingDirectory(candidate: RootCandidate, intent: PathIntent, label: string): void {
  if (intent === "cwd" && candidate.scope === "root") {
    throw new ToolError("permission_denied", `${label}: root:// paths cannot be used as a working directory; granted roots are for the file tools only.`, {
      details: {},
    });
  }
  if (intent === "cwd" && candidate.scope === "uploads") throw uploadsCwdRefusal(candidate, label);
}

/**
 * Write intents (`write`, `edit`, `delete`) need a root with write access.
 * Throws `ToolError` (`permission_denied`) naming the read-only root.
 *
 * @example
 * checkWriteAccess(docsRoot, "write", "Write path"); // throws: read-only project root root://docs
 */
export function checkWriteAccess(candidate: RootCandidate, intent: PathIntent, label: string): void {
  if (!WRITE_INTENTS.has(intent) || candidate.access === "write") return;
  if (candidate.scope === "uploads") throw uploadsWriteRefusal(candidate, label);
  const where =
    candidate.scope === "root"
      ? `read-only project root root://${candidate.root.alias}`
      : candidate.scope === "skill"
        ? `read-only skill ${candidate.skillName}`
        : "a read-only location";
  throw new ToolError("permission_denied", `${label} targets ${where}. Read-only roots support Read/List/Glob/Grep/Image but not Write/Edit/Delete.`, {
    details: { scope: candidate.scope, alias: candidate.scope === "root" ? candidate.root.alias : undefined },
  });
}

/** A `.git` name as git would take it: any case, trailing dots and spaces dropped (Windows and macOS file systems do). */
function isGitMetadataName(name: string): boolean {
  return name.replace(/[. ]+$/, "").toLowerCase() === ".git";
}

/**
 * Write intents may not target anything in a repository's `.git` (a `.git`
 * segment anywhere in the path as given or as resolved): git runs what its
 * config and hooks there say (fsmonitor, filters, hooks), also when the host
 * runs git on the workspace, so a model that could write them could run
 * commands on the host. Throws `ToolError` (`permission_denied`).
 *
 * @example
 * checkGitMetadata(["repo", ".git", "config"], "write", "Write path"); // throws
 */
export function checkGitMetadata(segments: readonly string[], intent: PathIntent, label: string): void {
  if (!WRITE_INTENTS.has(intent) || !segments.some(isGitMetadataName)) return;
  throw new ToolError(
    "permission_denied",
    `${label} is inside a repository's .git folder, which the file tools do not change: git runs the commands its config and hooks name. Use git commands to change the repository.`,
    { details: { reason: "git_metadata" } },
  );
}
