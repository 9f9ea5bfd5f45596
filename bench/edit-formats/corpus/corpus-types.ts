/**
 * The benchmark corpus as data: one changed file of one real commit (its old
 * text, new text and git's unified diff), and the manifest of where the
 * corpus came from. A leaf module.
 */

/** One modified file of one commit. */
export interface CorpusCase {
  /** `<owner>/<name>@<short commit>:<path>`, unique in the corpus. */
  readonly id: string;
  /** `owner/name` of the repository. */
  readonly repo: string;
  readonly commit: string;
  readonly parent: string;
  readonly path: string;
  /** The file before the commit (valid UTF-8, no NUL byte). */
  readonly oldText: string;
  /** The file after the commit. */
  readonly newText: string;
  /** `git diff -U3 <parent> <commit> -- <path>` (the file's section only). */
  readonly diff: string;
}

/** One repository of the corpus. */
export interface CorpusRepository {
  readonly repo: string;
  /** The commit the history was walked from. */
  readonly head: string;
  /** The commits whose files were taken, in corpus order. */
  readonly commits: readonly string[];
  readonly files: number;
}

/** `.corpus/manifest.json`. */
export interface CorpusManifest {
  readonly seed: number;
  readonly maxFiles: number;
  readonly builtAt: string;
  readonly repositories: readonly CorpusRepository[];
  /** Files looked at and left out, by reason. */
  readonly skipped: Readonly<Record<string, number>>;
  /** How to build it again. */
  readonly rebuild: string;
}
