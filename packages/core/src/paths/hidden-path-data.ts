/**
 * The shape in which the permission policy hands the paths its `Read(...)`
 * deny and ask rules hide to a process that must honour them on its own (a
 * language server's read guard): plain data, matched with the policy's own
 * minimatch, so both judge a path alike.
 */

/** One hidden-path rule as data: a path is hidden when it lies under a base and its relative path matches a glob. */
export interface HiddenPathData {
  /** The rule as written. */
  readonly rule: string;
  /** Absolute bases; `null`: any one segment of the path matching a glob hides it (a pattern without `/`). */
  readonly bases: readonly string[] | null;
  /** True when the base itself is hidden (the pattern names its anchor). */
  readonly self: boolean;
  /** minimatch globs over the `/`-separated path relative to a base (or one segment). */
  readonly globs: readonly string[];
  /** minimatch options (`dot`, `nocomment`, `nonegate`, `nocase`). */
  readonly options: Readonly<Record<string, boolean>>;
  /** The absolute file of the minimatch (CommonJS) the policy matches with. */
  readonly minimatch: string;
}
