/**
 * Compound command lines: every simple command anywhere in the tree is a
 * part (pipelines, `&&`, `||`, `;`, `&`, subshells, `{ }`, `$(...)`,
 * backticks, `<(...)`, if/for/while/case bodies, function bodies); a line is
 * allowed only when every part is, denied when any part is, and asks when
 * any part asks. `cd dir && cmd` is two parts.
 */
import { bashRows } from "./case-builders.js";
import { ALLOW_FALLBACK, ASK_FALLBACK, type CaseGroup } from "./case-types.js";

const allowParts = { allow: ["Bash(echo *)", "Bash(ls *)", "Bash(head *)", "Bash(wc *)", "Bash(true)", "Bash(grep *)", "Bash(cat *)"] };

const everyPartAllowed = bashRows({ permissions: allowParts, approval: ASK_FALLBACK }, [
  ["pipe: both sides allowed", "ls -la | head -5", "allow"],
  ["pipe of three, all allowed", "cat README.md | grep x | wc -l", "allow"],
  ["&&: both allowed", "echo a && echo b", "allow"],
  ["||: both allowed", "ls missing-{n} || echo none", "allow"],
  [";: both allowed", "echo a; echo b", "allow"],
  ["&: both allowed", "true & echo b", "allow"],
  ["subshell of allowed parts", "(echo a; ls)", "allow"],
  ["brace group of allowed parts", "{ echo a; echo b; }", "allow"],
  ["$(...) of an allowed part", "echo $(ls)", "allow"],
  ["backticks of an allowed part", "echo `ls`", "allow"],
  ["if of allowed parts", "if true; then echo yes; else echo no; fi", "allow"],
  ["for loop of allowed parts", "for f in a b; do echo $f; done", "allow"],
  ["pipe with '|&' of allowed parts", "ls |& head -1", "allow"],
  ["newline-separated allowed parts", "echo a\necho b", "allow"],
]);

const onePartNotAllowed = bashRows({ permissions: allowParts, approval: ASK_FALLBACK }, [
  ["pipe: right side not allowed", "echo hi | sh", "ask"],
  ["pipe: left side not allowed", "printf x | head -1", "ask"],
  ["&&: second part not allowed", "echo a && touch made-{n}", "ask"],
  ["||: second part not allowed", "ls missing-{n} || touch made-{n}", "ask"],
  [";: second part not allowed", "echo a; touch made-{n}", "ask"],
  ["&: first part not allowed", "sleep 1 & echo b", "ask"],
  ["subshell hides a part that is not allowed", "echo a; (touch made-{n})", "ask"],
  ["brace group hides a part", "{ echo a; touch made-{n}; }", "ask"],
  ["$(...) hides a part", "echo $(touch made-{n})", "ask"],
  ["backticks hide a part", "echo `touch made-{n}`", "ask"],
  ["$(...) inside double quotes hides a part", 'echo "now $(touch made-{n})"', "ask"],
  ["process substitution hides a part", "cat <(touch made-{n})", "ask"],
  ["if condition not allowed", "if touch made-{n}; then echo yes; fi", "ask"],
  ["else branch not allowed", "if true; then echo yes; else touch made-{n}; fi", "ask"],
  ["while body not allowed", "while false; do touch made-{n}; done", "ask"],
  ["case body not allowed", "case x in x) touch made-{n};; esac", "ask"],
  ["function body not allowed", "f() { touch made-{n}; }; f", "ask"],
  ["nested $( $( ) ) hides a part", "echo $(echo $(touch made-{n}))", "ask"],
  ["cd then an allowed command: cd itself is not allowed", "cd src && ls", "ask"],
]);

const cdRules = bashRows({ permissions: { allow: ["Bash(cd *)", "Bash(ls *)", "Bash(grep *)", "Bash(head *)"] }, approval: ASK_FALLBACK }, [
  ["cd dir && cmd with both allowed", "cd src && ls", "allow"],
  ["cd dir && pipeline with every part allowed", "cd src && grep -rn foo . | head", "allow"],
  ["cd dir && a part that is not allowed", "cd src && touch made-{n}", "ask"],
  ["cd dir; cmd not allowed", "cd src; rm -f made-{n}", "ask"],
]);

const denyAnywhere = bashRows({ permissions: { allow: ["Bash(echo *)", "Bash(ls *)", "Bash(true)"], deny: ["Bash(rm *)"] }, approval: ASK_FALLBACK }, [
  ["deny after a pipe", "ls | rm -rf build", "deny", "Bash(rm *)"],
  ["deny after &&", "echo a && rm -rf build", "deny", "Bash(rm *)"],
  ["deny after ||", "false || rm -rf build", "deny", "Bash(rm *)"],
  ["deny after ;", "echo a; rm -rf build", "deny", "Bash(rm *)"],
  ["deny after &", "true & rm -rf build", "deny", "Bash(rm *)"],
  ["deny inside a subshell", "(cd src && rm -rf ../build)", "deny", "Bash(rm *)"],
  ["deny inside a brace group", "{ rm -rf build; }", "deny", "Bash(rm *)"],
  ["deny inside $(...)", "echo $(rm -rf build)", "deny", "Bash(rm *)"],
  ["deny inside backticks", "echo `rm -rf build`", "deny", "Bash(rm *)"],
  ["deny inside <(...)", "cat <(rm -rf build)", "deny", "Bash(rm *)"],
  ["deny inside an if body", "if true; then rm -rf build; fi", "deny", "Bash(rm *)"],
  ["deny inside a for body with a dynamic word", "for f in build; do rm -rf $f; done", "deny", "Bash(rm *)"],
  ["deny inside a while body", "while true; do rm -rf build; break; done", "deny", "Bash(rm *)"],
  ["deny inside a case arm", "case a in a) rm -rf build;; esac", "deny", "Bash(rm *)"],
  ["deny inside a function body", "f() { rm -rf build; }; f", "deny", "Bash(rm *)"],
  ["deny on a later line", "echo a\nrm -rf build", "deny", "Bash(rm *)"],
  ["deny beats ask across parts", "touch made-{n}; rm -rf build", "deny", "Bash(rm *)"],
  ["deny inside $(...) in a double-quoted string", 'echo "x $(rm -rf build)"', "deny", "Bash(rm *)"],
]);

const askAnywhere = bashRows({ permissions: { allow: ["Bash(echo *)", "Bash(git *)"], ask: ["Bash(git push *)"] }, approval: ALLOW_FALLBACK }, [
  ["ask in the second part beats allow in the first", "echo a && git push origin main", "ask", "Bash(git push *)"],
  ["ask in a pipeline part", "git log | git push", "ask", "Bash(git push *)"],
  ["ask inside $(...)", "echo $(git push)", "ask", "Bash(git push *)"],
  ["every part allowed, none asks", "echo a && git log -1", "allow"],
]);

/** Compound command line rows. */
export const bashCompoundCases: CaseGroup = {
  group: "bash compound lines",
  cases: [...everyPartAllowed, ...onePartNotAllowed, ...cdRules, ...denyAnywhere, ...askAnywhere],
};
