import { ToolError } from "@agent-tools/core";
import { walkTree } from "./file-walker.js";
import { RIPGREP_WALK_FLAGS, runRipgrep } from "./ripgrep.js";

/**
 * Every file below `base` (relative, `/`-separated, unsorted) that the
 * ignore rules keep: from `rg --files` when ripgrep is available, else from
 * the TypeScript walker. Both list the same files.
 *
 * @param prefilterGlob a ripgrep glob matched against base names that every
 *   wanted file satisfies (a cheap superset filter), or undefined
 */
export async function listFiles(base: string, ripgrepPath: string | null, options: { signal?: AbortSignal; prefilterGlob?: string } = {}): Promise<string[]> {
  if (!ripgrepPath) return (await walkTree(base, { signal: options.signal })).map((entry) => entry.relativePath);
  const args = ["--files", ...RIPGREP_WALK_FLAGS];
  // A file type (not --glob: ripgrep's globs override ignore files) narrows by base name.
  if (options.prefilterGlob) args.push("--type-add", `agentprefilter:${options.prefilterGlob}`, "--type", "agentprefilter");
  args.push("--", ".");
  const output = await runRipgrep(ripgrepPath, args, { cwd: base, signal: options.signal });
  if (output.exitCode !== 0 && output.exitCode !== 1) {
    throw new ToolError("io", `Listing files failed: ${output.stderr.trim().split("\n")[0] ?? "ripgrep exited with " + output.exitCode}.`);
  }
  const text = output.stdout.toString("utf8");
  const files: string[] = [];
  let start = 0;
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
    // ripgrep prints "./name" for the "." search path.
    files.push(text.slice(text.startsWith("./", start) ? start + 2 : start, end));
    start = end + 1;
  }
  return files;
}

/**
 * A ripgrep glob (matched against base names) that every path matching the
 * minimatch `pattern` satisfies, or undefined when none is safe.
 */
export function basenamePrefilter(pattern: string): string | undefined {
  const last = pattern.slice(pattern.lastIndexOf("/") + 1);
  if (last === "" || last === "*" || last.includes("**") || /[()!+@\\]/.test(last)) return undefined;
  return last;
}
