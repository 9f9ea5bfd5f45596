import os from "node:os";
import path from "node:path";
import { grantedRootInfo, rootStatus } from "./additional-roots.js";
import { isWithin, tryRealpath } from "./containment.js";
import { displayPath } from "./display-path.js";
import type { PathPolicy, PathPolicyOptions, RootInfo } from "./path-policy-types.js";
import { type PathPolicyState, createPolicyState } from "./policy-state.js";
import { resolvePath } from "./resolve-path.js";
import { skillWalkExclusions } from "./skill-root.js";

export type {
  PathIntent,
  PathScope,
  SkillAccessDecision,
  SkillPathOptions,
  PathPolicyOptions,
  ResolvePathOptions,
  ResolvedPath,
  RootInfo,
  PathPolicy,
} from "./path-policy-types.js";

/**
 * Creates the path policy of a workspace: a thin object over the frozen
 * state built from `options` (see `policy-state.ts`); each method is one of
 * the pure functions of `paths/`. Throws `SdkError` for a bad workdir or
 * root grant.
 *
 * @example
 * const paths = createPathPolicy({ workdir: "/repo", additionalRoots: [{ alias: "docs", path: "/srv/docs", access: "read" }] });
 * paths.resolve("root://docs/guide.md", { intent: "read" }).absolutePath; // "/srv/docs/guide.md"
 */
export function createPathPolicy(options: PathPolicyOptions): PathPolicy {
  const state = createPolicyState(options);
  return {
    workdir: state.workdir,
    resolve: (input, resolveOptions) => resolvePath(state, input, resolveOptions),
    display: (absolutePath) => displayPath(state, absolutePath),
    staysInside,
    walkExclusions: (directory) => skillWalkExclusions(state, directory),
    roots: () => listRoots(state),
  };
}

/** True when the canonical form of `absolutePath` exists and stays inside `rootPath`. */
function staysInside(rootPath: string, absolutePath: string): boolean {
  const real = tryRealpath(absolutePath);
  return real !== null && isWithin(rootPath, real);
}

/** The granted roots with their live status. */
function listRoots(state: PathPolicyState): RootInfo[] {
  return state.granted.map((root) => grantedRootInfo(root, rootStatus(root)));
}

/**
 * Expands a leading `~` for hosts that accept it in options.
 *
 * @example
 * expandHome("~/data"); // "/home/me/data"
 */
export function expandHome(value: string): string {
  return value === "~" || value.startsWith("~/") ? path.join(os.homedir(), value.slice(1)) : value;
}
