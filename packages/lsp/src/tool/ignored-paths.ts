/**
 * Which result paths are gitignored, as Glob and Grep leave them out. Tool
 * packages never import each other, so this asks git itself: one
 * `git check-ignore -z --stdin` per root, through the registry's process
 * runner (the workspace's processes on a remote workspace), so the answer
 * is exactly git's (nested .gitignore files, info/exclude, negations) and
 * works over SSH too. The repository's hooks and fsmonitor stay off
 * (`HOST_GIT_SAFETY_ENVIRONMENT`): the model may have written .git/config.
 * Without git, or outside a repository, nothing counts as ignored.
 */
import type { ProcessRunner } from "@agent-tools/core";
import { GIT_LOCATING_VARIABLES, HOST_GIT_SAFETY_ENVIRONMENT, isWithin } from "@agent-tools/core/internal";

/** The most bytes of git's answer read (paths of at most a few hundred results). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Runs `git check-ignore` for the paths under one directory; the ignored ones. */
async function checkUnder(runner: ProcessRunner, cwd: string, paths: readonly string[], signal?: AbortSignal): Promise<Set<string>> {
  const environment: Record<string, string | undefined> = { ...HOST_GIT_SAFETY_ENVIRONMENT, GIT_TERMINAL_PROMPT: "0" };
  for (const name of GIT_LOCATING_VARIABLES) environment[name] = undefined;
  const child = runner.spawn({
    command: "git",
    args: ["check-ignore", "-z", "--stdin"],
    cwd,
    env: environment,
    input: `${paths.join("\0")}\0`,
    ...(signal === undefined ? {} : { signal }),
  });
  const chunks: Buffer[] = [];
  let size = 0;
  child.onOutput((chunk) => {
    if (chunk.stream !== "stdout" || size > MAX_ANSWER_BYTES) return;
    chunks.push(chunk.data);
    size += chunk.data.length;
  });
  const exit = await child.exited;
  await child.outputClosed;
  // 0: some ignored; 1: none; anything else (no git, not a repository): nothing known to be ignored.
  if (exit.exitCode !== 0) return new Set();
  return new Set(
    Buffer.concat(chunks)
      .toString("utf8")
      .split("\0")
      .filter((item) => item !== ""),
  );
}

/**
 * The subset of `paths` (absolute) that git ignores, asking once per root
 * of `roots` (absolute directories: the workspace and the registry's other
 * roots) that holds any of them.
 */
export async function gitIgnoredPaths(runner: ProcessRunner, roots: readonly string[], paths: readonly string[], signal?: AbortSignal): Promise<Set<string>> {
  const groups = new Map<string, string[]>();
  for (const path of paths) {
    const root = roots.filter((candidate) => isWithin(candidate, path)).sort((a, b) => b.length - a.length)[0];
    if (root === undefined) continue;
    const group = groups.get(root) ?? [];
    group.push(path);
    groups.set(root, group);
  }
  const ignored = new Set<string>();
  for (const [root, group] of groups) {
    for (const path of await checkUnder(runner, root, group, signal)) ignored.add(path);
  }
  return ignored;
}
