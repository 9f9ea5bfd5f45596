/**
 * The parts of a parsed Bash command line: every simple command found anywhere in the tree.
 * The types are shared by the parser (`shell-parser.ts`) and the pattern matcher (`command-pattern.ts`).
 */

/** One word of a simple command, after quote removal. */
export interface ShellWord {
  /** The word after quote removal (`"a b"` -> `a b`, `'x'` -> `x`, `a"b"c` -> `abc`); for a dynamic word the expansions keep their source text (`$HOME`). */
  readonly text: string;
  /**
   * True when the shell decides the word at run time: it holds an expansion (`$X`, `${X}`, `$(..)`, backticks, `$((..))`, `<(..)`),
   * an unquoted glob (`*`, `?`, `[`) or an unquoted brace expansion (`{a,b}`). Such a word may become zero, one or several words.
   */
  readonly dynamic: boolean;
  /**
   * Present only on a word that is dynamic through globs or brace expansion alone (no `$`, backtick or other expansion):
   * the offsets in `text` of its unquoted `*` characters (possibly none). Command patterns read their wildcards from it.
   */
  readonly wildcards?: readonly number[];
}

/** One simple command of a command line. */
export interface CommandPart {
  /** The command name first, then its arguments; `VAR=x` prefixes are stripped (see `assignments`). Empty for a bare assignment statement. */
  readonly words: readonly ShellWord[];
  /** Names of the `VAR=x` prefixes (or of a bare assignment statement, or of `env VAR=x` for the inner command of `env`). */
  readonly assignments: readonly string[];
  /** The source text of this simple command, for messages. */
  readonly text: string;
  /** False when no allow rule may allow this part (an unsafe assignment, output to a file, a shell reading a script, ...); deny and ask rules still match it. */
  readonly allowable: boolean;
  /** Why the part is not allowable, in words for the model. */
  readonly notAllowableReason?: string;
  /**
   * True when the part runs commands this policy cannot read: a shell reading its script from standard input or a file, `source`,
   * a command string decided at run time, `env -S`. Deny and ask rules cannot see those commands, so while the tool has such rules,
   * a bare allow of the tool does not allow the line (it falls to the fallback, at least ask).
   */
  readonly hidesCommands?: boolean;
}

/** The result of parsing a command line. */
export type ParsedCommandLine =
  | { readonly ok: true; readonly parts: readonly CommandPart[] }
  /** The line (or a nested `sh -c` / `eval` string) did not parse, or was too long or too deeply nested: never allowed by a rule. `parts` holds what could be read. */
  | { readonly ok: false; readonly reason: string; readonly parts: readonly CommandPart[] };

/**
 * Variables a `VAR=x` prefix may set on a part that an allow rule allows. Any other variable (PATH, LD_PRELOAD, GIT_*, NODE_OPTIONS,
 * BASH_ENV, ...) may change what runs, so its assignment makes the part not allowable by a rule. `LC_*` is matched by prefix.
 */
export const SAFE_ASSIGNMENT_NAMES: ReadonlySet<string> = new Set([
  "NODE_ENV",
  "CI",
  "FORCE_COLOR",
  "NO_COLOR",
  "LANG",
  "LANGUAGE",
  "TZ",
  "DEBUG",
  "TERM",
  "COLUMNS",
]);

/** True when assigning `name` cannot change which program runs or how it loads (see {@link SAFE_ASSIGNMENT_NAMES}). */
export function isSafeAssignmentName(name: string): boolean {
  return SAFE_ASSIGNMENT_NAMES.has(name) || /^LC_[A-Z]+$/.test(name);
}
