/** Grep's `file_pattern` filter: shared by the local disk's engines and a workspace's. */
import { ToolError } from "@agent-tools/core";
import { Minimatch } from "minimatch";

/** Grep's `file_pattern` as a filter of relative paths, and the basename globs ripgrep can prefilter with. */
export function fileFilter(filePattern: string | undefined): { filter: (relative: string) => boolean; prefilter?: string[] } {
  if (!filePattern || filePattern.trim() === "") return { filter: () => true };
  const globs = filePattern
    .split("|")
    .map((glob) => glob.trim().replace(/\\/g, "/").replace(/^\.\//, ""))
    .filter(Boolean);
  let matchers: Minimatch[];
  try {
    matchers = globs.map((glob) => new Minimatch(glob, { dot: true, matchBase: !glob.includes("/"), nocomment: true, nonegate: true }));
  } catch (error) {
    throw new ToolError("glob_invalid", `Grep file_pattern "${filePattern}" is invalid: ${(error as Error).message}.`);
  }
  const basenameOnly = globs.every((glob) => !glob.includes("/") && !/[()!+@\\]/.test(glob));
  return { filter: (relative) => matchers.some((matcher) => matcher.match(relative)), prefilter: basenameOnly ? globs : undefined };
}

/** `filter` with each path's verdict remembered. */
export function judgedOnce(filter: (relative: string) => boolean): (relative: string) => boolean {
  const verdicts = new Map<string, boolean>();
  return (relative) => {
    let verdict = verdicts.get(relative);
    if (verdict === undefined) verdicts.set(relative, (verdict = filter(relative)));
    return verdict;
  };
}
