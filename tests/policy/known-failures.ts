/**
 * Rows of the decision table that fail today, each with the reading of why
 * (reported to the lead of issue 35, who routes the fixes). The test runs
 * them with `it.fails`: such a row passes while it still fails, and fails
 * the moment it is fixed, so this list must shrink with every fix: never
 * add a row here to hide a regression.
 *
 * Keys are `<group>/<row name>`.
 */

export const KNOWN_FAILURES: Readonly<Record<string, string>> = {
  "traps/a command after a heredoc's start on the same line":
    'tree-sitter-bash 0.25.1 reports a syntax error for `cat <<EOF; rm -rf build` + body (valid Bash: rm runs after cat), and no part is read, so the deny rule "Bash(rm *)" does not fire: the line asks (not allowed, but a managed deny is not applied)',
};
