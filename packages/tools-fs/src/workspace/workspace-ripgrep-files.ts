/**
 * The files of a workspace directory as one `rg --files` run in the
 * workspace lists them, with the walk flags of the local ripgrep code (the
 * file tools' ignore rules, `.git` and the tools' sidecar files skipped):
 * one process instead of a directory read per round trip.
 */
import type { Workspace } from "@agent-tools/core/workspace";
import { RIPGREP_WALK_FLAGS, runRipgrep } from "../search/ripgrep.js";
import { RipgrepNotStartedError, workspaceProgramRunner } from "./workspace-program-runner.js";

/** `rg --files` arguments listing below "." without the folders in `excluded` (relative, `/`-separated). */
export function ripgrepFilesArguments(excluded: Iterable<string>): string[] {
  const args = ["--files", "--null", ...RIPGREP_WALK_FLAGS];
  // Negated globs only exclude: files they do not match still follow the ignore files.
  for (const directory of excluded) args.push("--glob", `!/${directory.replace(/[\\*?[\]{}!]/g, "\\$&")}`);
  args.push("--", ".");
  return args;
}

/**
 * Every file below `directory` (relative, `/`-separated, unsorted) that the
 * ignore rules keep, listed by `rg` in the workspace; undefined when `rg`
 * did not start there or listed nothing and failed (the caller walks
 * instead). Unreadable folders are skipped, as the walk skips them.
 */
export async function listFilesWithRipgrep(
  workspace: Workspace,
  directory: string,
  excluded: Iterable<string>,
  signal: AbortSignal,
): Promise<string[] | undefined> {
  if (!workspace.capabilities.ripgrep || !workspace.processes) return undefined;
  let output: Awaited<ReturnType<typeof runRipgrep>>;
  try {
    output = await runRipgrep("rg", ripgrepFilesArguments(excluded), { cwd: directory, signal, runner: workspaceProgramRunner(workspace.processes) });
  } catch (error) {
    if (error instanceof RipgrepNotStartedError) return undefined;
    throw error;
  }
  if (output.exitCode !== 0 && output.exitCode !== 1 && output.stdoutBytes === 0) return undefined;
  if (output.endedBySignal) return undefined;
  const files: string[] = [];
  for (const name of output.stdout.toString("utf8").split("\0")) {
    if (name !== "") files.push(name.startsWith("./") ? name.slice(2) : name);
  }
  return files;
}
