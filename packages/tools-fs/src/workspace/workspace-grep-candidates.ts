/**
 * The files ripgrep finds a Grep pattern in, on a workspace whose opens are
 * anchored (`capabilities.anchoredOpens`): one `rg --files-with-matches`
 * run there names the candidates, and nothing of what it read is shown.
 * ripgrep walks the tree by path, so a subfolder swapped for a symlink to
 * an outside folder while it runs is followed; the caller reads each
 * candidate again through the workspace's anchored file system (which
 * refuses a file whose folder resolves outside the root) and matches it
 * here, so every line, count and file name shown comes from that read.
 */
import { type GrepQuery, ripgrepArguments, runChecked } from "../search/grep-ripgrep.js";

/** `ripgrepArguments` as a listing of the files with a match (NUL-separated names, no lines, no context). */
export function candidateArguments(query: GrepQuery): string[] {
  const args = ripgrepArguments({ ...query, context: 0 }).filter((arg) => arg !== "--heading" && arg !== "--line-number" && arg !== "--max-columns-preview");
  args.splice(args.indexOf("--max-columns"), 2);
  args.unshift("--files-with-matches");
  return args;
}

/**
 * The files below `directory` (relative, `/`-separated, unsorted) in which
 * ripgrep, run in the workspace through `query.runner`, found the pattern.
 * Rejects as the ripgrep Grep does (an invalid pattern, a failed run;
 * `RipgrepNotStartedError` when `rg` is not there).
 */
export async function ripgrepCandidateFiles(directory: string, query: GrepQuery): Promise<string[]> {
  const names: Buffer[] = [];
  await runChecked(
    { rgPath: "rg", directory, args: candidateArguments(query), signal: query.signal, runner: query.runner },
    { onStdout: (chunk) => void names.push(chunk) },
  );
  const files: string[] = [];
  // `--null`: each name ends with a NUL (no line feed).
  for (const name of Buffer.concat(names).toString("utf8").split("\0")) {
    if (name !== "") files.push(name.startsWith("./") ? name.slice(2) : name);
  }
  return files;
}
