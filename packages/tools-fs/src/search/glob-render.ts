/** Glob's matcher and answer, the same for the local disk's walk and a workspace's. */
import { ToolError } from "@agent-tools/core";
import { Minimatch } from "minimatch";
import { joinDisplay } from "./file-walker.js";
import { moreNote } from "./search-base.js";

/** Details of a Glob result. */
export interface GlobDetails {
  kind: "glob";
  pattern: string;
  path: string;
  totalMatches: number;
  returned: number;
  offset: number;
  hasMore: boolean;
}

/** Glob's matcher of a pattern (`original`: as the model wrote it, for the message); refuses an invalid one with `glob_invalid`. */
export function compileGlob(pattern: string, original: string): Minimatch {
  try {
    return new Minimatch(pattern, { dot: true, matchBase: !pattern.includes("/"), nocomment: true, nonegate: true });
  } catch (error) {
    throw new ToolError("glob_invalid", `Glob pattern "${original}" is invalid: ${(error as Error).message}. Use forms like "**/*.ts" or "src/*.{js,ts}".`);
  }
}

/** Glob's answer from the matched files (sorted here), on the local disk or a workspace. */
export function renderGlob(
  matched: string[],
  input: { pattern: string; offset: number; max_results: number },
  displayDirectory: string,
): { content: string; details: GlobDetails } {
  matched.sort(); // UTF-16 code unit order, the same as comparePaths
  const page = matched.slice(input.offset, input.offset + input.max_results);
  const hasMore = input.offset + input.max_results < matched.length;
  const lines = page.map((file) => joinDisplay(displayDirectory, file));
  let text: string;
  if (matched.length === 0) text = `No files match "${input.pattern}" in ${displayDirectory}.`;
  else {
    text =
      `Found ${matched.length} file${matched.length === 1 ? "" : "s"} matching "${input.pattern}" in ${displayDirectory}` +
      (page.length ? ` (showing ${input.offset + 1}-${input.offset + page.length}):` : `; offset=${input.offset} is past the end.`);
    if (lines.length) text += `\n${lines.join("\n")}`;
    if (hasMore) text += `\n${moreNote("files", input.offset + page.length)}`;
  }
  return {
    content: text,
    details: {
      kind: "glob" as const,
      pattern: input.pattern,
      path: displayDirectory,
      totalMatches: matched.length,
      returned: page.length,
      offset: input.offset,
      hasMore,
    },
  };
}
