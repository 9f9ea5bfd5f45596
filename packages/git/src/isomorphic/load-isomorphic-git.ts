import type IsomorphicGit from "isomorphic-git";

let loading: Promise<typeof IsomorphicGit> | undefined;

/**
 * isomorphic-git, imported on first use so that importing the SDK does not
 * pay for it (about 170 ms) when the git CLI adapter is in use.
 */
export function loadIsomorphicGit(): Promise<typeof IsomorphicGit> {
  loading ??= import("isomorphic-git").then((module) => module.default);
  return loading;
}
