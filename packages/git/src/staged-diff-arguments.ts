/**
 * The arguments of `git diff` for a binary patch of the index against
 * `base`, safe on a tree git did not write: no renames, colours, external
 * diff or textconv drivers, fixed `a/` and `b/` prefixes whatever the
 * configuration says. `fullIndex` writes full blob ids (the worktree
 * snapshot's patch is applied by id).
 *
 * @example
 * stagedDiffArguments("HEAD"); // ["diff", "--cached", "--binary", "--no-renames", ..., "HEAD", "--"]
 */
export function stagedDiffArguments(base: string, options: { readonly fullIndex?: boolean } = {}): string[] {
  return [
    "diff",
    "--cached",
    "--binary",
    ...(options.fullIndex === true ? ["--full-index"] : []),
    "--no-renames",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "--src-prefix=a/",
    "--dst-prefix=b/",
    base,
    "--",
  ];
}
