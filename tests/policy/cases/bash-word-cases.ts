/**
 * Words of a command: compared after quote removal; expansions are dynamic
 * (they match only a `*` for allow, anything for deny and ask; a dynamic
 * command name is never allowed); `VAR=x` prefixes (a safe list only for
 * allow); output redirection to a file; heredoc bodies (data); lines that
 * do not parse (never allowed by a rule, at least `ask`).
 */
import { bashRows } from "./case-builders.js";
import { ALLOW_FALLBACK, ASK_FALLBACK, type CaseGroup } from "./case-types.js";

const quoting = bashRows(
  { permissions: { allow: ['Bash(echo "a b")', "Bash(echo hi)", 'Bash(echo "*")', "Bash(printf '%s\\n' x)"] }, approval: ASK_FALLBACK },
  [
    ["double quotes removed: one word 'a b'", 'echo "a b"', "allow", 'Bash(echo "a b")'],
    ["single quotes removed: one word 'a b'", "echo 'a b'", "allow", 'Bash(echo "a b")'],
    ["escaped space is one word 'a b'", "echo a\\ b", "allow", 'Bash(echo "a b")'],
    ["adjacent quoted pieces make one word", "echo 'a'\" b\"", "allow", 'Bash(echo "a b")'],
    ["two words 'a' 'b' do not match the one word 'a b'", "echo a b", "ask"],
    ["quotes around the command name are removed", '"echo" hi', "allow", "Bash(echo hi)"],
    ["quotes inside the command name are removed", 'e"ch"o hi', "allow", "Bash(echo hi)"],
    ["quoted argument equals the bare one", "echo 'hi'", "allow", "Bash(echo hi)"],
    ["a quoted star in the rule is a literal star", "echo '*'", "allow", 'Bash(echo "*")'],
    ["a quoted star in the rule does not match other words", "echo star", "ask"],
    ["a quoted rule argument with a backslash", "printf '%s\\n' x", "allow", "Bash(printf '%s\\n' x)"],
  ],
);

const quotingDeny = bashRows({ permissions: { deny: ["Bash(rm -rf build)", "Bash(git push *)"] }, approval: ALLOW_FALLBACK }, [
  ["deny matches a quoted argument", 'rm -rf "build"', "deny", "Bash(rm -rf build)"],
  ["deny matches a quoted command name", "'rm' -rf build", "deny", "Bash(rm -rf build)"],
  ["deny matches pieces of a quoted command name", 'r"m" -rf build', "deny", "Bash(rm -rf build)"],
  ["deny matches an escaped letter", "\\rm -rf build", "deny", "Bash(rm -rf build)"],
  ["deny matches a quoted flag", "rm '-rf' build", "deny", "Bash(rm -rf build)"],
  ["deny matches a quoted subcommand", 'git "push" origin', "deny", "Bash(git push *)"],
]);

const dynamic = bashRows({ permissions: { allow: ["Bash(echo *)", "Bash(ls src)", "Bash(cat README.md)"] }, approval: ASK_FALLBACK }, [
  ["a $VAR word matches a '*'", "echo $HOME", "allow", "Bash(echo *)"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
  ["a ${VAR} word matches a '*'", "echo ${HOME}", "allow", "Bash(echo *)"],
  ["a $((...)) word matches a '*'", "echo $((1 + 2))", "allow", "Bash(echo *)"],
  ["a $VAR word does not match a literal", "ls $DIR", "ask"],
  ["a word partly dynamic does not match a literal", "ls sr$C", "ask"],
  ["a $(...) word does not match a literal", "cat $(echo README.md)", "ask"],
  ["a dynamic command name is never allowed", "$EDITOR README.md", "ask", undefined, { explainOnly: "runs whatever $EDITOR holds" }],
  ["a dynamic command name from $(...) is never allowed", "$(echo echo) hi", "ask"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
  ["a command name with ${...} is never allowed", "ec${X}ho hi", "ask"],
]);

const dynamicDeny = bashRows({ permissions: { deny: ["Bash(rm -rf build)", "Bash(git push origin main)"] }, approval: ALLOW_FALLBACK }, [
  ["for deny a $VAR word matches the literal", "rm -rf $TARGET", "deny", "Bash(rm -rf build)"],
  ["for deny a $(...) word matches the literal", "git push origin $(echo main)", "deny", "Bash(git push origin main)"],
  ["for deny a dynamic command name matches", "$RM -rf build", "deny", "Bash(rm -rf build)"],
  ["for deny a backtick word matches", "git push `echo origin` main", "deny", "Bash(git push origin main)"],
]);

const assignments = bashRows({ permissions: { allow: ["Bash(npm run test *)", "Bash(echo *)"], deny: ["Bash(rm *)"] }, approval: ASK_FALLBACK }, [
  ["a safe VAR=x prefix is stripped (NODE_ENV)", "NODE_ENV=test echo hi", "allow", "Bash(echo *)"],
  ["a safe VAR=x prefix is stripped (CI)", "CI=1 npm run test", "allow", "Bash(npm run test *)"],
  ["several safe prefixes are stripped", "FORCE_COLOR=0 NO_COLOR=1 echo hi", "allow", "Bash(echo *)"],
  ["LC_* is on the safe list", "LC_ALL=C echo hi", "allow", "Bash(echo *)"],
  ["PATH= makes the part not allowable", "PATH=/tmp echo hi", "ask"],
  ["LD_PRELOAD= makes the part not allowable", "LD_PRELOAD=/tmp/x.so echo hi", "ask"],
  ["NODE_OPTIONS= makes the part not allowable", "NODE_OPTIONS=--require=./x.js npm run test", "ask"],
  ["GIT_* makes the part not allowable", "GIT_DIR=/tmp echo hi", "ask"],
  ["BASH_ENV= makes the part not allowable", "BASH_ENV=./x.sh echo hi", "ask"],
  ["an unknown variable makes the part not allowable", "FOO=1 echo hi", "ask"],
  ["a dynamic value of a safe variable", "NODE_ENV=$X echo hi", "allow", "Bash(echo *)", { open: "a safe variable's dynamic value" }],
  ["deny matches behind any prefix", "FOO=1 rm -rf build", "deny", "Bash(rm *)"],
  ["deny matches behind PATH=", "PATH=/usr/bin rm -rf build", "deny", "Bash(rm *)"],
]);

const redirections = bashRows({ permissions: { allow: ["Bash(echo *)", "Bash(ls *)", "Bash(cat *)"] }, approval: ASK_FALLBACK }, [
  ["> to a file makes the part not allowable", "echo hi > made-{n}.txt", "ask"],
  [">> to a file makes the part not allowable", "echo hi >> made-{n}.txt", "ask"],
  ["&> to a file makes the part not allowable", "ls &> made-{n}.txt", "ask"],
  [">| to a file makes the part not allowable", "echo hi >| made-{n}.txt", "ask"],
  ["2> to a file makes the part not allowable", "ls missing 2> made-{n}.txt", "ask"],
  ["> into a subshell's part", "(echo hi > made-{n}.txt)", "ask"],
  ["> /dev/null stays allowable", "echo hi > /dev/null", "allow", "Bash(echo *)"],
  ["2> /dev/null stays allowable", "ls missing-{n} 2>/dev/null", "allow", "Bash(ls *)"],
  ["> /dev/stderr stays allowable", "echo hi > /dev/stderr", "allow", "Bash(echo *)"],
  [">&2 stays allowable", "echo hi >&2", "allow", "Bash(echo *)"],
  ["2>&1 stays allowable", "ls missing-{n} 2>&1", "allow", "Bash(ls *)"],
  ["> to a dynamic path is not allowable", "echo hi > $OUT", "ask"],
]);

const heredocs = bashRows(
  { permissions: { allow: ["Bash(cat *)", "Bash(sh *)", "Bash(bash *)", "Bash(wc *)"], deny: ["Bash(rm *)"] }, approval: ASK_FALLBACK },
  [
    ["a heredoc body is data, not a command", "cat <<EOF\nrm -rf build\nEOF", "allow", "Bash(cat *)"],
    ["a quoted heredoc body is data", "cat <<'EOF'\nrm -rf build\nEOF", "allow", "Bash(cat *)"],
    ["a heredoc with <<- is data", "cat <<-EOF\n\trm -rf build\n\tEOF", "allow", "Bash(cat *)"],
    ["a heredoc fed to sh is not allowable", "sh <<EOF\necho hi\nEOF", "ask"],
    ["a heredoc fed to bash -s is not allowable", "bash -s <<EOF\necho hi\nEOF", "ask"],
    ["a heredoc with a file redirect is not allowable", "cat <<EOF > made-{n}.txt\nhi\nEOF", "ask"],
    ["a heredoc then a denied command", "cat <<EOF\nhi\nEOF\nrm -rf build", "deny", "Bash(rm *)"],
    ["a herestring is data", "wc -c <<< 'rm -rf build'", "allow", "Bash(wc *)"],
    [
      "$(...) inside an unquoted heredoc body runs",
      "cat <<EOF\n$(rm -rf build)\nEOF",
      "deny",
      "Bash(rm *)",
      { open: "command substitutions inside a heredoc body are parts" },
    ],
  ],
);

const unparsable = bashRows({ permissions: { allow: ["Bash(echo *)", "Bash(true)"], deny: ["Bash(rm *)"] }, approval: ASK_FALLBACK }, [
  ["an open double quote is never allowed", 'echo "unterminated', "ask"],
  ["an open single quote is never allowed", "echo 'unterminated", "ask"],
  ["an unclosed $( is never allowed", "echo $(ls", "ask"],
  ["an unclosed subshell is never allowed", "(echo hi", "ask"],
  ["a dangling && is never allowed", "echo hi &&", "ask"],
  ["an if without fi is never allowed", "if true; then echo hi", "ask"],
  ["a deny rule still matches the readable part", "rm -rf build; echo 'oops", "deny", "Bash(rm *)"],
]);

const unparsableDefault = bashRows({ permissions: { allow: ["Bash(echo *)"] }, approval: ALLOW_FALLBACK }, [
  ["an unparsable line asks even when the fallback allows", 'echo "unterminated', "ask"],
  ["a parsable line the rules do not cover follows the fallback (allow)", "true", "allow"],
]);

/** Word-level rows: quoting, expansions, assignments, redirections, heredocs, parse errors. */
export const bashWordCases: CaseGroup = {
  group: "bash words",
  cases: [...quoting, ...quotingDeny, ...dynamic, ...dynamicDeny, ...assignments, ...redirections, ...heredocs, ...unparsable, ...unparsableDefault],
};
