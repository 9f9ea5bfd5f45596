/**
 * The path policy of a workspace that is not the host's own disk (an SSH
 * machine, an in-memory tree): the same parsing, root matching, display and
 * access rules as `createPathPolicy`, decided on the text of the path alone.
 * It never reads the local disk for a workspace path (no realpath, no lstat,
 * no on-disk name matching): symlinks and existence are the workspace's to
 * answer, through `resolveInWorkspace` of `@agent-tools/core/workspace`.
 * Only `skill://` paths, the host's own skills, are resolved on this disk.
 */
import path from "node:path";
import { SdkError, ToolError } from "../errors.js";
import { quoteForMessage, shortenForMessage } from "../quote.js";
import { isWithinWorkspacePath } from "../workspace/resolve-in-workspace.js";
import { type AdditionalRoot, type GrantedRoot, grantedRootInfo, grantedRootNamed, validateAdditionalRoots } from "./additional-roots.js";
import { displayFor } from "./display-path.js";
import { type HostSkills, displayHostSkillPath, hostSkills, isHostSkillRoot, resolveHostSkillPath, staysInsideOnHost } from "./lexical-skill-paths.js";
import { type ParsedPathInput, parsePathInput } from "./parse-path-input.js";
import type { PathPolicy, ResolvePathOptions, ResolvedPath, RootCandidate, RootInfo, SkillPathOptions } from "./path-policy-types.js";
import { checkGitMetadata, checkWorkingDirectory, checkWriteAccess } from "./root-checks.js";

const posix = path.posix;

/** Options of {@link createLexicalPathPolicy}. */
export interface LexicalPathPolicyOptions {
  /**
   * The workspace directory: an absolute POSIX path of the workspace,
   * already canonical (the host resolved it through the workspace; nothing
   * here checks it exists).
   */
  workdir: string;
  /**
   * Extra directories as `root://alias/...`, in the workspace's namespace.
   * Their paths are taken as given (the host resolved and checked them
   * through the workspace); the alias, overlap and access rules of
   * `createPathPolicy` apply.
   */
  additionalRoots?: readonly AdditionalRoot[];
  /** Names the workspace in messages (its label, e.g. `ssh://dev@host:22`). */
  workspaceLabel: string;
  /**
   * The host's uploads folder (`<dataDir>/uploads`): a path of the host, so
   * an absolute path under it is refused rather than read in the workspace.
   */
  uploadsDir?: string;
  /**
   * The host's skills (`<dataDir>/skills`): `skill://` paths are then read
   * on this disk, as the local policy reads them (read-only, never a
   * working directory). Without it `skill://` is refused.
   */
  skills?: SkillPathOptions;
}

/** Everything a lexical policy decides from. */
interface LexicalState {
  readonly workdir: string;
  readonly granted: readonly GrantedRoot[];
  readonly label: string;
  readonly uploadsDir: string | undefined;
  readonly skills: HostSkills | undefined;
}

/**
 * Creates the path policy of a non-local workspace. `resolve` parses the
 * input, places it in its root (the workspace, `root://`, or an absolute
 * path matched lexically to the longest root), and applies the working
 * directory, write-access and `.git` rules; it returns `exists: false` and
 * `isSymlink: false` because it cannot know: the tool that uses the path
 * must canonicalise it through the workspace (`resolveInWorkspace(workspace.fs,
 * resolved.rootPath, resolved.absolutePath)`), which also refuses a symlink
 * that leads out of the root. `~` and the uploads folder are refused: they
 * live on the host, not in the workspace. `skill://` paths (the host's data)
 * are read on this disk when the host gave `skills`, and refused otherwise.
 * `staysInside` answers false (a walker skips what it cannot check) and
 * `walkExclusions` is empty. Throws `SdkError` (`invalid_options`,
 * `invalid_root`) for a bad workdir or grant.
 *
 * @example
 * const paths = createLexicalPathPolicy({ workdir: "/srv/app", workspaceLabel: "ssh://dev@10.0.0.5:22" });
 * paths.resolve("src/a.ts", { intent: "read" }).absolutePath; // "/srv/app/src/a.ts" (exists: false until checked through the workspace)
 */
export function createLexicalPathPolicy(options: LexicalPathPolicyOptions): PathPolicy {
  if (typeof options.workdir !== "string" || !options.workdir.startsWith("/") || options.workdir.includes("\0")) {
    throw new SdkError(
      "invalid_options",
      `workdir must be an absolute path of the workspace, not ${JSON.stringify(shortenForMessage(String(options.workdir)))}.`,
    );
  }
  const workdir = posix.resolve(options.workdir);
  const granted = validateAdditionalRoots(options.additionalRoots ?? [], workdir, (declared) => ({ canonicalPath: posix.resolve(declared) }));
  const label = typeof options.workspaceLabel === "string" && options.workspaceLabel !== "" ? options.workspaceLabel : "the workspace";
  const state: LexicalState = Object.freeze({
    workdir,
    granted: Object.freeze(granted.map((root) => Object.freeze(root))),
    label,
    uploadsDir: options.uploadsDir === undefined ? undefined : path.resolve(options.uploadsDir),
    skills: options.skills === undefined ? undefined : hostSkills(options.skills, label),
  });
  return {
    workdir,
    resolve: (input, resolveOptions) => resolveLexically(state, input, resolveOptions),
    display: (absolutePath) => displayLexically(state, absolutePath),
    // Without the workspace's answer nothing is known to stay inside: a walker skips it (a host's skill folder is checked on this disk).
    staysInside: (rootPath, absolutePath) => state.skills !== undefined && isHostSkillRoot(state.skills, rootPath) && staysInsideOnHost(rootPath, absolutePath),
    walkExclusions: () => [],
    roots: () => listRoots(state),
  };
}

/** The roots of the state, workspace first, as candidates. */
function candidates(state: LexicalState): RootCandidate[] {
  return [
    { scope: "workspace", rootPath: state.workdir, access: "write" },
    ...state.granted.map((root): RootCandidate => ({ scope: "root", rootPath: root.canonicalPath, access: root.access, root })),
  ];
}

/** The longest root containing `absolutePath` (ties keep the workspace), with the path below it; null when none does. */
function matchLexically(state: LexicalState, absolutePath: string): { candidate: RootCandidate; relative: string } | null {
  let best: { candidate: RootCandidate; relative: string } | null = null;
  for (const candidate of candidates(state)) {
    if (!isWithinWorkspacePath(candidate.rootPath, absolutePath)) continue;
    if (best !== null && best.candidate.rootPath.length >= candidate.rootPath.length) continue;
    best = { candidate, relative: posix.relative(candidate.rootPath, absolutePath) };
  }
  return best;
}

function resolveLexically(state: LexicalState, input: string, options: ResolvePathOptions): ResolvedPath {
  const label = options.label ?? "path";
  const intent = options.intent;
  if (typeof input === "string" && /^\s*~(\/|\\|\s*$)/.test(input)) {
    throw new ToolError(
      "invalid_path",
      `${label} ${quoteForMessage(input)} starts with "~", the home directory of the host, not of ${state.label}. Pass a workspace-relative path or an absolute path of the workspace.`,
      { details: { workspace: state.label } },
    );
  }
  const parsed = parsePathInput(input, label);
  if (parsed.kind === "skill" && state.skills !== undefined) return resolveHostSkillPath(state.skills, input, options);
  const { candidate, segments } = locate(state, input, parsed, options, label);
  checkWorkingDirectory(candidate, intent, label);
  checkWriteAccess(candidate, intent, label);
  checkGitMetadata(segments, intent, label);
  const absolutePath = segments.length > 0 ? posix.join(candidate.rootPath, ...segments) : candidate.rootPath;
  const relativePath = candidate.scope === "external" ? "" : segments.join("/");
  return {
    input,
    absolutePath,
    exists: false,
    isSymlink: false,
    scope: candidate.scope,
    rootPath: candidate.rootPath,
    relativePath,
    displayPath: displayFor(candidate, relativePath, absolutePath),
    access: candidate.access,
    alias: candidate.scope === "root" ? candidate.root.alias : undefined,
  };
}

function locate(
  state: LexicalState,
  input: string,
  parsed: ParsedPathInput,
  options: ResolvePathOptions,
  label: string,
): { candidate: RootCandidate; segments: string[] } {
  switch (parsed.kind) {
    case "workspace":
      return { candidate: { scope: "workspace", rootPath: state.workdir, access: "write" }, segments: parsed.segments };
    case "skill":
      throw new ToolError(
        "unsupported_target",
        `${label} ${quoteForMessage(input)}: skill:// paths are not available on ${state.label}; skills live on the host, not in the workspace the tools work in.`,
        { details: { workspace: state.label, scope: "skill" } },
      );
    case "root": {
      const root = grantedRootNamed(state.granted, parsed.alias, label, input);
      return { candidate: { scope: "root", rootPath: root.canonicalPath, access: root.access, root }, segments: parsed.segments };
    }
    default:
      return locateAbsolute(state, parsed.absolutePath, parsed.segments, options, label);
  }
}

function locateAbsolute(
  state: LexicalState,
  absolutePath: string,
  segments: readonly string[],
  options: ResolvePathOptions,
  label: string,
): { candidate: RootCandidate; segments: string[] } {
  const match = matchLexically(state, absolutePath);
  if (match !== null) return { candidate: match.candidate, segments: match.relative === "" ? [] : match.relative.split("/") };
  if (state.uploadsDir !== undefined && isWithinWorkspacePath(state.uploadsDir, absolutePath)) {
    throw new ToolError(
      "unsupported_target",
      `${label} ${shortenForMessage(absolutePath)} is in the uploads folder, which lives on the host, not in ${state.label}; uploaded files cannot be reached from this workspace.`,
      { details: { workspace: state.label, scope: "uploads" } },
    );
  }
  if (!options.allowExternal) {
    throw new ToolError(
      "out_of_bounds",
      `${label} resolves outside the workspace and granted roots: ${shortenForMessage(absolutePath)}. Pass a workspace-relative path instead (workspace root: ${state.workdir}).`,
      { details: { absolutePath: shortenForMessage(absolutePath) } },
    );
  }
  return { candidate: { scope: "external", rootPath: "/", access: "write" }, segments: [...segments] };
}

function displayLexically(state: LexicalState, absolutePath: string): string {
  if (typeof absolutePath !== "string" || !absolutePath.startsWith("/")) return absolutePath;
  const match = matchLexically(state, posix.resolve(absolutePath));
  if (match !== null) return displayFor(match.candidate, match.relative, absolutePath);
  return (state.skills === undefined ? undefined : displayHostSkillPath(state.skills, absolutePath)) ?? absolutePath;
}

/** Granted roots as checked when the registry was built (the workspace answers for them since). */
function listRoots(state: LexicalState): RootInfo[] {
  return state.granted.map((root) => grantedRootInfo(root, "active"));
}
