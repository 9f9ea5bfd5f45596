import path from "node:path";
import { matchRoot } from "./match-root.js";
import type { RootCandidate } from "./path-policy-types.js";
import type { PathPolicyState } from "./policy-state.js";

/**
 * What results show for a path in a root: workspace paths relative (`.`
 * for the workspace itself), `root://alias/...`, `skill://name/...`, and
 * uploads and external paths absolute.
 *
 * @example
 * displayFor({ scope: "workspace", rootPath: "/repo", access: "write" }, "src/a.ts", "/repo/src/a.ts"); // "src/a.ts"
 */
export function displayFor(candidate: RootCandidate, relativePath: string, absolutePath: string): string {
  switch (candidate.scope) {
    case "workspace":
      return relativePath === "" ? "." : relativePath;
    case "root":
      return `root://${candidate.root.alias}/${relativePath}`;
    case "skill":
      return `skill://${candidate.skillName}/${relativePath}`;
    case "uploads":
      return relativePath === "" ? candidate.rootPath : path.join(candidate.rootPath, ...relativePath.split("/"));
    default:
      return absolutePath;
  }
}

/**
 * Rewrites any absolute path for display, matching it to its root first;
 * a path outside every root comes back unchanged.
 *
 * @example
 * displayPath(state, "/srv/docs/guide.md"); // "root://docs/guide.md"
 */
export function displayPath(state: PathPolicyState, absolutePath: string): string {
  const match = matchRoot(state, path.resolve(absolutePath));
  if (match === null) return absolutePath;
  return displayFor(match.candidate, match.relative.split(path.sep).join("/"), absolutePath);
}

/**
 * Names a root in a message: `root://alias`, `skill://name`, or the
 * workspace with its directory.
 *
 * @example
 * describeRoot(state, { scope: "skill", rootPath: "/data/skills/pdf", access: "read", skillName: "pdf" }); // "skill://pdf"
 */
export function describeRoot(state: PathPolicyState, candidate: RootCandidate): string {
  if (candidate.scope === "root") return `root://${candidate.root.alias}`;
  if (candidate.scope === "skill") return `skill://${candidate.skillName}`;
  if (candidate.scope === "uploads") return `the uploads folder (${candidate.rootPath})`;
  return `the workspace (${state.workdir})`;
}
