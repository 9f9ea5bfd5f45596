import path from "node:path";
import { canonicalOrLoop, isWithin, tryRealpath } from "./containment.js";
import type { RootCandidate } from "./path-policy-types.js";
import type { PathPolicyState } from "./policy-state.js";
import { uploadsBases, uploadsCandidate } from "./uploads-root.js";

/** An absolute path matched to the root it falls into. */
export interface RootMatch {
  /** The root; a skill match is read-only here, {@link skillRoot} decides the real access. */
  readonly candidate: RootCandidate;
  /** Path relative to the matched base, with the platform separator; "" for the root itself. */
  readonly relative: string;
}

/**
 * The roots an absolute path can fall into, workspace first (then granted
 * roots, then the uploads folder), with the bases
 * each is reachable through: its canonical path and, when different, the
 * path the host declared (a symlinked workdir or root).
 */
function rootBases(state: PathPolicyState): Array<{ candidate: RootCandidate; bases: string[] }> {
  const workspace: RootCandidate = { scope: "workspace", rootPath: state.workdir, access: "write" };
  const list: Array<{ candidate: RootCandidate; bases: string[] }> = [
    { candidate: workspace, bases: state.declaredWorkdir === state.workdir ? [state.workdir] : [state.workdir, state.declaredWorkdir] },
  ];
  for (const root of state.granted) {
    const candidate: RootCandidate = { scope: "root", rootPath: root.canonicalPath, access: root.access, root };
    list.push({ candidate, bases: root.declaredPath === root.canonicalPath ? [root.canonicalPath] : [root.canonicalPath, root.declaredPath] });
  }
  const uploads = uploadsCandidate(state);
  if (uploads !== undefined) list.push({ candidate: uploads, bases: uploadsBases(state) });
  return list;
}

/**
 * The longest root containing one form of a path, or null. Ties keep the
 * earlier root (the workspace before granted roots); a base counts as
 * longer only when it is longer than the canonical root already chosen.
 */
function matchForm(state: PathPolicyState, form: string): RootMatch | null {
  let best: RootMatch | null = null;
  for (const { candidate, bases } of rootBases(state)) {
    for (const base of bases) {
      if (!isWithin(base, form)) continue;
      if (best !== null && best.candidate.rootPath.length >= base.length) continue;
      best = { candidate, relative: path.relative(base, form) };
    }
  }
  const skillMatch = matchSkill(state, form);
  if (skillMatch !== null && (best === null || best.candidate.rootPath.length < skillMatch.candidate.rootPath.length)) best = skillMatch;
  return best;
}

/** A path strictly inside the skills directory (declared or canonical) falls into the skill its first component names. */
function matchSkill(state: PathPolicyState, form: string): RootMatch | null {
  if (state.skills === undefined) return null;
  const declared = state.skills.rootDir;
  const canonical = tryRealpath(declared) ?? declared;
  let best: RootMatch | null = null;
  for (const base of new Set([declared, canonical])) {
    if (!isWithin(base, form) || form === base) continue;
    const [skillName, ...rest] = path.relative(base, form).split(path.sep);
    if (skillName === undefined) continue;
    const candidate: RootCandidate = { scope: "skill", rootPath: path.join(canonical, skillName), access: "read", skillName };
    if (best === null || best.candidate.rootPath.length < candidate.rootPath.length) best = { candidate, relative: rest.join("/") };
  }
  return best;
}

/**
 * Finds the root an absolute path falls into: the longest matching root
 * (workspace, granted roots, skills), tried on the path as written first and
 * then on its canonical form (so a symlink into a root counts). A symlink
 * loop has no canonical form: it is matched lexically, and resolving it
 * reports the loop. Null when the path is outside every root.
 *
 * @example
 * matchRoot(state, "/srv/docs/guide.md"); // { candidate: { scope: "root", ... }, relative: "guide.md" }
 */
export function matchRoot(state: PathPolicyState, absolutePath: string): RootMatch | null {
  const lexical = matchForm(state, absolutePath);
  if (lexical !== null) return lexical;
  const canonical = canonicalOrLoop(absolutePath)?.canonicalPath ?? absolutePath;
  return canonical === absolutePath ? null : matchForm(state, canonical);
}
