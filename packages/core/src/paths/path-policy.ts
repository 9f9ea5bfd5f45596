import os from "node:os";
import path from "node:path";
import { SdkError, ToolError } from "../errors.js";
import { type AdditionalRoot, type GrantedRoot, type RootAccess, type RootStatus, rootStatus, validateAdditionalRoots } from "./additional-roots.js";
import { type CanonicalTarget, MAX_SYMLINK_HOPS, canonicalizeTarget, isWithin, tryRealpath } from "./containment.js";
import { matchOnDiskNames } from "./on-disk-names.js";
import { type ParsedPathInput, parsePathInput } from "./parse-path-input.js";
import { quoteForMessage, shortenForMessage } from "../quote.js";

/** Why a path is resolved; write intents need write access, `cwd` refuses `root://`. */
export type PathIntent = "read" | "list" | "search" | "image" | "write" | "edit" | "delete" | "cwd";

/** Which kind of root a path resolved into. */
export type PathScope = "workspace" | "root" | "skill" | "external";

/** Access decision of a skill-access hook. */
export type SkillAccessDecision = { access: RootAccess } | { denied: string };

/** How `skill://` paths resolve; the skills package plugs its policy in here. */
export interface SkillPathOptions {
  /** Directory holding one folder per skill. Default `<dataDir>/skills`. */
  rootDir: string;
  /** Decides access per skill and intent; default: read-only for every skill. */
  access?(skillName: string, intent: PathIntent): SkillAccessDecision;
}

/** Options of {@link createPathPolicy}. */
export interface PathPolicyOptions {
  /** Absolute workspace directory; must exist. */
  workdir: string;
  /** Extra directories reachable as `root://alias/...`. */
  additionalRoots?: readonly AdditionalRoot[];
  /** `skill://` resolution; omitted = `skill://` paths are refused. */
  skills?: SkillPathOptions;
}

/** Options of {@link PathPolicy.resolve}. */
export interface ResolvePathOptions {
  intent: PathIntent;
  /** How messages name the input, e.g. `Read path`. Default `path`. */
  label?: string;
  /** Accept absolute paths outside every root (Image, Bash cwd). Default false. */
  allowExternal?: boolean;
}

/** A path that passed the policy. */
export interface ResolvedPath {
  /** The input as given. */
  readonly input: string;
  /** Absolute path inside the canonical root (the leaf is not resolved when it is a symlink being deleted). */
  readonly absolutePath: string;
  /** True when the target exists (following symlinks). */
  readonly exists: boolean;
  /** True when the last component is a symlink. */
  readonly isSymlink: boolean;
  readonly scope: PathScope;
  /** Canonical root directory (`/` for external paths). */
  readonly rootPath: string;
  /** Path relative to the root with `/` separators; "" for the root itself. */
  readonly relativePath: string;
  /** What results show: relative, `root://alias/...`, `skill://name/...` or absolute. */
  readonly displayPath: string;
  readonly access: RootAccess;
  readonly alias?: string;
  readonly skillName?: string;
}

/** Live state of a granted root, as listed by {@link PathPolicy.roots}. */
export interface RootInfo {
  readonly alias: string;
  readonly id?: string;
  readonly path: string;
  readonly canonicalPath: string;
  readonly access: RootAccess;
  readonly status: RootStatus;
}

/** The one place every tool resolves and checks paths. */
export interface PathPolicy {
  /** The canonical workspace directory. */
  readonly workdir: string;
  /** Resolves and checks an input path; throws `ToolError` (`invalid_path`, `out_of_bounds`, `permission_denied`). */
  resolve(input: string, options: ResolvePathOptions): ResolvedPath;
  /** Rewrites an absolute path for display (`.`-relative, `root://`, `skill://`, or absolute). */
  display(absolutePath: string): string;
  /** True when the canonical form of `absolutePath` stays inside `rootPath` (for walkers skipping escaping symlinks). */
  staysInside(rootPath: string, absolutePath: string): boolean;
  /** Granted roots with their live status. */
  roots(): RootInfo[];
}

const WRITE_INTENTS: ReadonlySet<PathIntent> = new Set(["write", "edit", "delete"]);

interface Candidate {
  scope: PathScope;
  rootPath: string;
  access: RootAccess;
  alias?: string;
  skillName?: string;
  granted?: GrantedRoot;
}

/**
 * Creates the path policy of a workspace.
 *
 * @example
 * const paths = createPathPolicy({ workdir: "/repo", additionalRoots: [{ alias: "docs", path: "/srv/docs", access: "read" }] });
 * paths.resolve("root://docs/guide.md", { intent: "read" }).absolutePath; // "/srv/docs/guide.md"
 */
export function createPathPolicy(options: PathPolicyOptions): PathPolicy {
  if (typeof options.workdir !== "string" || options.workdir.trim() === "") {
    throw new SdkError("invalid_options", "workdir is required: pass the absolute project directory.");
  }
  if (!path.isAbsolute(options.workdir)) throw new SdkError("invalid_options", `workdir must be absolute: ${shortenForMessage(options.workdir)}`);
  const workdir = tryRealpath(options.workdir);
  if (workdir === null) throw new SdkError("invalid_options", `workdir does not exist: ${shortenForMessage(options.workdir)}`);
  const declaredWorkdir = path.resolve(options.workdir);
  const granted = validateAdditionalRoots(options.additionalRoots ?? [], workdir);
  const skills = options.skills;
  const skillsRoot = skills ? path.resolve(skills.rootDir) : undefined;

  function fail(code: "invalid_path" | "out_of_bounds" | "permission_denied", message: string, details: Record<string, unknown> = {}): never {
    throw new ToolError(code, message, { details });
  }

  function checkRootLive(candidate: Candidate, label: string): void {
    if (candidate.scope === "workspace") {
      if (tryRealpath(declaredWorkdir) !== workdir) {
        throw new ToolError("invalid_workdir", `The workspace directory ${declaredWorkdir} no longer resolves to ${workdir}; every access is refused.`, { recoverable: false });
      }
      return;
    }
    if (candidate.granted) {
      const status = rootStatus(candidate.granted);
      if (status !== "active") {
        fail(
          "permission_denied",
          `${label} targets root://${candidate.granted.alias}, which is ${status === "missing" ? "missing" : "changed since it was granted (its path or symlink target moved)"}; every access to it is refused until the host grants it again.`,
          { alias: candidate.granted.alias, status },
        );
      }
    }
  }

  function skillCandidate(skillName: string, intent: PathIntent, label: string): Candidate {
    if (!skills || !skillsRoot) fail("permission_denied", `${label}: skill:// paths are not available in this runtime.`);
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(skillName)) fail("invalid_path", `${label}: ${quoteForMessage(skillName)} is not a valid skill name.`);
    const decision = skills!.access ? skills!.access(skillName, intent) : { access: "read" as const };
    if ("denied" in decision) fail("permission_denied", decision.denied, { skillName });
    const rootPath = tryRealpath(path.join(skillsRoot!, skillName)) ?? path.join(tryRealpath(skillsRoot!) ?? skillsRoot!, skillName);
    return { scope: "skill", rootPath, access: (decision as { access: RootAccess }).access, skillName };
  }

  function absoluteCandidates(): Candidate[] {
    const list: Candidate[] = [{ scope: "workspace", rootPath: workdir!, access: "write" }];
    for (const root of granted) list.push({ scope: "root", rootPath: root.canonicalPath, access: root.access, alias: root.alias, granted: root });
    return list;
  }

  /** Longest matching root for an absolute path (lexical first, then canonical). */
  function matchAbsolute(absolutePath: string): { candidate: Candidate; relative: string } | null {
    const forms = [absolutePath];
    // A symlink loop has no canonical form: match lexically, resolve() then reports the loop.
    const canonical = canonicalOrLoop(absolutePath)?.canonicalPath ?? absolutePath;
    if (canonical !== absolutePath) forms.push(canonical);
    for (const form of forms) {
      let best: { candidate: Candidate; relative: string } | null = null;
      const consider = (candidate: Candidate, base: string) => {
        if (!isWithin(base, form)) return;
        if (best && best.candidate.rootPath.length >= base.length) return;
        best = { candidate, relative: path.relative(base, form) };
      };
      for (const candidate of absoluteCandidates()) {
        consider(candidate, candidate.rootPath);
        if (candidate.scope === "workspace" && declaredWorkdir !== workdir) consider(candidate, declaredWorkdir);
        if (candidate.granted && candidate.granted.declaredPath !== candidate.rootPath) consider(candidate, candidate.granted.declaredPath);
      }
      if (skillsRoot) {
        const realSkills = tryRealpath(skillsRoot) ?? skillsRoot;
        for (const base of new Set([skillsRoot, realSkills])) {
          if (isWithin(base, form) && form !== base) {
            const rel = path.relative(base, form).split(path.sep);
            const skillName = rel[0]!;
            const candidate = { scope: "skill" as const, rootPath: path.join(realSkills, skillName), access: "read" as const, skillName };
            if (!best || (best as { candidate: Candidate }).candidate.rootPath.length < candidate.rootPath.length) {
              best = { candidate, relative: rel.slice(1).join("/") };
            }
          }
        }
      }
      if (best) return best;
    }
    return null;
  }

  function resolve(input: string, resolveOptions: ResolvePathOptions): ResolvedPath {
    const label = resolveOptions.label ?? "path";
    const intent = resolveOptions.intent;
    const parsed: ParsedPathInput = parsePathInput(input, label);
    let candidate: Candidate;
    let segments: string[];
    if (parsed.kind === "workspace") {
      candidate = { scope: "workspace", rootPath: workdir!, access: "write" };
      segments = matchOnDiskNames(candidate.rootPath, parsed.segments);
    } else if (parsed.kind === "root") {
      const root = granted.find((r) => r.alias === parsed.alias);
      if (!root) {
        const available = granted.map((r) => `root://${r.alias}/ (${r.access === "write" ? "read/write" : "read-only"})`);
        fail(
          "invalid_path",
          `${label} ${quoteForMessage(input)} names an unknown root ${quoteForMessage(parsed.alias, 40)}. ${available.length ? `Available roots: ${available.join(", ")}.` : "No extra roots are granted; use a workspace-relative path."}`,
        );
      }
      candidate = { scope: "root", rootPath: root!.canonicalPath, access: root!.access, alias: root!.alias, granted: root };
      segments = matchOnDiskNames(candidate.rootPath, parsed.segments);
    } else if (parsed.kind === "skill") {
      candidate = skillCandidate(parsed.skillName, intent, label);
      segments = matchOnDiskNames(candidate.rootPath, parsed.segments);
    } else {
      const systemRoot = path.parse(parsed.absolutePath).root;
      const onDisk = matchOnDiskNames(systemRoot, parsed.segments);
      const absolutePath = path.join(systemRoot, ...onDisk);
      const match = matchAbsolute(absolutePath);
      if (match) {
        candidate = match.candidate;
        if (candidate.scope === "skill") candidate = skillCandidate(candidate.skillName!, intent, label);
        segments = match.relative === "" ? [] : match.relative.split(path.sep);
      } else {
        if (!resolveOptions.allowExternal) {
          fail(
            "out_of_bounds",
            `${label} resolves outside the workspace and granted roots: ${shortenForMessage(absolutePath)}. Pass a workspace-relative path instead (workspace root: ${workdir}).`,
            { absolutePath: shortenForMessage(absolutePath) },
          );
        }
        candidate = { scope: "external", rootPath: systemRoot, access: "write" };
        segments = onDisk;
      }
    }
    if (intent === "cwd" && candidate.scope === "root") {
      fail("permission_denied", `${label}: root:// paths cannot be used as a working directory; granted roots are for the file tools only.`);
    }
    checkRootLive(candidate, label);
    if (WRITE_INTENTS.has(intent) && candidate.access !== "write") {
      const where = candidate.scope === "root" ? `read-only project root root://${candidate.alias}` : candidate.scope === "skill" ? `read-only skill ${candidate.skillName}` : "a read-only location";
      fail(
        "permission_denied",
        `${label} targets ${where}. Read-only roots support Read/List/Glob/Grep/Image but not Write/Edit/Delete.`,
        { scope: candidate.scope, alias: candidate.alias },
      );
    }
    const lexical = segments.length ? path.join(candidate.rootPath, ...segments) : candidate.rootPath;
    const target = canonicalOrLoop(lexical, { keepLeafSymlink: intent === "delete" });
    if (target === null) failSymlinkLoop(lexical, input, label);
    if (candidate.scope !== "external" && !isWithin(candidate.rootPath, target.canonicalPath)) {
      fail(
        "out_of_bounds",
        `${label} ${quoteForMessage(input)} resolves through a symlink to ${shortenForMessage(target.canonicalPath)}, outside ${describe(candidate)}. Symlinks may not lead out of the workspace or a granted root.`,
        { canonicalPath: shortenForMessage(target.canonicalPath) },
      );
    }
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
      alias: candidate.alias,
      skillName: candidate.skillName,
    };
  }

  /** {@link canonicalizeTarget}, with null for a symlink loop instead of its error. */
  function canonicalOrLoop(target: string, canonicalOptions: { keepLeafSymlink?: boolean } = {}): CanonicalTarget | null {
    try {
      return canonicalizeTarget(target, canonicalOptions);
    } catch (error) {
      if (error instanceof ToolError && error.details.symlinkLoop === true) return null;
      throw error;
    }
  }

  /** Reports a symlink loop with the first link on the way, so the model knows which link to delete. */
  function failSymlinkLoop(lexical: string, input: string, label: string): never {
    let firstLink = lexical;
    try {
      canonicalizeTarget(lexical);
    } catch (error) {
      if (error instanceof ToolError && typeof error.details.firstLink === "string") firstLink = error.details.firstLink;
    }
    fail(
      "invalid_path",
      `${label} ${quoteForMessage(input)} is a symlink loop (or too many levels of symlinks): resolving it followed more than ${MAX_SYMLINK_HOPS} symlinks, starting at ${display(firstLink)}. Delete the link or point it at an existing file (Delete removes a symlink itself, never its target), then retry.`,
      { symlinkLoop: true, firstLink: display(firstLink) },
    );
  }

  function describe(candidate: Candidate): string {
    if (candidate.scope === "root") return `root://${candidate.alias}`;
    if (candidate.scope === "skill") return `skill://${candidate.skillName}`;
    return `the workspace (${workdir})`;
  }

  function displayFor(candidate: Candidate, relativePath: string, absolutePath: string): string {
    switch (candidate.scope) {
      case "workspace":
        return relativePath === "" ? "." : relativePath;
      case "root":
        return `root://${candidate.alias}/${relativePath}`;
      case "skill":
        return `skill://${candidate.skillName}/${relativePath}`;
      default:
        return absolutePath;
    }
  }

  function display(absolutePath: string): string {
    const match = matchAbsolute(path.resolve(absolutePath));
    if (!match) return absolutePath;
    return displayFor(match.candidate, match.relative.split(path.sep).join("/"), absolutePath);
  }

  function staysInside(rootPath: string, absolutePath: string): boolean {
    const real = tryRealpath(absolutePath);
    return real !== null && isWithin(rootPath, real);
  }

  function roots(): RootInfo[] {
    return granted.map((root) => ({
      alias: root.alias,
      id: root.id,
      path: root.declaredPath,
      canonicalPath: root.canonicalPath,
      access: root.access,
      status: rootStatus(root),
    }));
  }

  return { workdir, resolve, display, staysInside, roots };
}

/** Expands a leading `~` for hosts that accept it in options. */
export function expandHome(value: string): string {
  return value === "~" || value.startsWith("~/") ? path.join(os.homedir(), value.slice(1)) : value;
}
