import path from "node:path";
import { ToolError } from "../errors.js";
import { quoteForMessage, shortenForMessage } from "../quote.js";
import { grantedRootNamed } from "./additional-roots.js";
import { type CanonicalTarget, MAX_SYMLINK_HOPS, canonicalOrLoop, canonicalizeTarget, isWithin } from "./containment.js";
import { describeRoot, displayFor, displayPath } from "./display-path.js";
import { matchRoot } from "./match-root.js";
import { matchOnDiskNames } from "./on-disk-names.js";
import { type ParsedPathInput, parsePathInput } from "./parse-path-input.js";
import type { ResolvePathOptions, ResolvedPath, RootCandidate } from "./path-policy-types.js";
import type { PathPolicyState } from "./policy-state.js";
import { checkGitMetadata, checkRootLive, checkWorkingDirectory, checkWriteAccess } from "./root-checks.js";
import { skillReachedBy, skillRoot } from "./skill-root.js";
import { checkUploadsReach } from "./uploads-root.js";

/** A parsed input placed in its root, before any check. */
interface Located {
  readonly candidate: RootCandidate;
  /** Components below the root, as named on disk. */
  readonly segments: string[];
}

/**
 * Resolves and checks an input path against the policy's state: parses it,
 * places it in its root (workspace, `root://`, `skill://`, or an absolute
 * path matched to the longest root, the read-only uploads folder included), checks the root is live and allows
 * the intent, and that symlinks do not lead out of it. Throws `ToolError`
 * (`invalid_path`, `out_of_bounds`, `permission_denied`, `invalid_workdir`).
 *
 * @example
 * resolvePath(state, "root://docs/guide.md", { intent: "read" }).absolutePath; // "/srv/docs/guide.md"
 */
export function resolvePath(state: PathPolicyState, input: string, options: ResolvePathOptions): ResolvedPath {
  const label = options.label ?? "path";
  const intent = options.intent;
  const { candidate, segments } = locate(state, input, parsePathInput(input, label), options, label);
  checkWorkingDirectory(candidate, intent, label);
  checkRootLive(state, candidate, label);
  checkWriteAccess(candidate, intent, label);
  const lexical = segments.length ? path.join(candidate.rootPath, ...segments) : candidate.rootPath;
  const target = canonicalOrLoop(lexical, { keepLeafSymlink: intent === "delete" });
  if (target === null) throw symlinkLoopError(state, lexical, input, label);
  if (candidate.scope !== "external" && !isWithin(candidate.rootPath, target.canonicalPath)) {
    throw new ToolError(
      "out_of_bounds",
      `${label} ${quoteForMessage(input)} resolves through a symlink to ${shortenForMessage(target.canonicalPath)}, outside ${describeRoot(state, candidate)}. Symlinks may not lead out of the workspace or a granted root.`,
      { details: { canonicalPath: shortenForMessage(target.canonicalPath) } },
    );
  }
  // `.git` below the root, as given or as resolved (a symlink into a .git folder); a root that itself lies in one is the host's choice.
  const resolvedBelowRoot = candidate.scope === "external" ? [] : path.relative(candidate.rootPath, target.canonicalPath).split(path.sep);
  checkGitMetadata([...segments, ...resolvedBelowRoot], intent, label);
  // The skill policy by canonical path: a skill reached by another form (the dataDir inside the workspace, a symlink) is that skill.
  const reached = candidate.scope === "skill" ? undefined : skillReachedBy(state, candidate, target.canonicalPath, intent, label);
  // The uploads policy by canonical path too: a dataDir inside the workspace or a root, or a symlink, does not make uploads writable.
  checkUploadsReach(state, candidate, target.canonicalPath, intent, label);
  if (reached !== undefined) {
    checkWriteAccess(reached.candidate, intent, label);
    const skillPath = path.join(reached.candidate.rootPath, ...reached.segments);
    return resolved(input, reached.candidate, reached.segments, skillPath, target);
  }
  return resolved(input, candidate, segments, lexical, target);
}

/** The result for a path placed in its root. */
function resolved(input: string, candidate: RootCandidate, segments: readonly string[], lexical: string, target: CanonicalTarget): ResolvedPath {
  const relativePath = candidate.scope === "external" ? "" : segments.join("/");
  return {
    input,
    absolutePath: candidate.scope === "external" ? lexical : path.join(candidate.rootPath, ...segments),
    exists: target.exists,
    isSymlink: target.isSymlink,
    scope: candidate.scope,
    rootPath: candidate.rootPath,
    relativePath,
    displayPath: displayFor(candidate, relativePath, lexical),
    access: candidate.access,
    alias: candidate.scope === "root" ? candidate.root.alias : undefined,
    skillName: candidate.scope === "skill" ? candidate.skillName : undefined,
  };
}

/** Places a parsed input in its root and matches its components to the names on disk. */
function locate(state: PathPolicyState, input: string, parsed: ParsedPathInput, options: ResolvePathOptions, label: string): Located {
  switch (parsed.kind) {
    case "workspace":
      return { candidate: { scope: "workspace", rootPath: state.workdir, access: "write" }, segments: matchOnDiskNames(state.workdir, parsed.segments) };
    case "root": {
      const root = grantedRootNamed(state.granted, parsed.alias, label, input);
      return {
        candidate: { scope: "root", rootPath: root.canonicalPath, access: root.access, root },
        segments: matchOnDiskNames(root.canonicalPath, parsed.segments),
      };
    }
    case "skill": {
      const candidate = skillRoot(state, parsed.skillName, options.intent, label);
      return { candidate, segments: matchOnDiskNames(candidate.rootPath, parsed.segments) };
    }
    default:
      return locateAbsolute(state, parsed.absolutePath, parsed.segments, options, label);
  }
}

/** An absolute input: the longest root containing it, else an external path when the caller allows those. */
function locateAbsolute(state: PathPolicyState, absoluteInput: string, inputSegments: readonly string[], options: ResolvePathOptions, label: string): Located {
  const systemRoot = path.parse(absoluteInput).root;
  const onDisk = matchOnDiskNames(systemRoot, inputSegments);
  const absolutePath = path.join(systemRoot, ...onDisk);
  const match = matchRoot(state, absolutePath);
  if (match !== null) {
    // A skill matched by path still goes through the host's access hook for this intent.
    const candidate = match.candidate.scope === "skill" ? skillRoot(state, match.candidate.skillName, options.intent, label) : match.candidate;
    return { candidate, segments: match.relative === "" ? [] : match.relative.split(path.sep) };
  }
  if (!options.allowExternal) {
    throw new ToolError(
      "out_of_bounds",
      `${label} resolves outside the workspace and granted roots: ${shortenForMessage(absolutePath)}. Pass a workspace-relative path instead (workspace root: ${state.workdir}).`,
      { details: { absolutePath: shortenForMessage(absolutePath) } },
    );
  }
  return { candidate: { scope: "external", rootPath: systemRoot, access: "write" }, segments: onDisk };
}

/** A symlink loop, reported with the first link on the way so the model knows which link to delete. */
function symlinkLoopError(state: PathPolicyState, lexical: string, input: string, label: string): ToolError {
  let firstLink = lexical;
  try {
    canonicalizeTarget(lexical);
  } catch (error) {
    if (error instanceof ToolError && typeof error.details.firstLink === "string") firstLink = error.details.firstLink;
  }
  const shown = displayPath(state, firstLink);
  return new ToolError(
    "invalid_path",
    `${label} ${quoteForMessage(input)} is a symlink loop (or too many levels of symlinks): resolving it followed more than ${MAX_SYMLINK_HOPS} symlinks, starting at ${shown}. Delete the link or point it at an existing file (Delete removes a symlink itself, never its target), then retry.`,
    { details: { symlinkLoop: true, firstLink: shown } },
  );
}
