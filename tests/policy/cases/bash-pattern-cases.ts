/**
 * Bash command patterns on single commands: exact rules, a trailing ` *`
 * (which also matches the bare command), the legacy `:*` suffix, `*` inside
 * a word, a standalone `*` in the middle (the `Bash(git * main)` trap), deny
 * and ask rules, and deny > ask > allow inside one settings block.
 * Unless a block says otherwise the approval fallback asks, so "no rule
 * allowed it" reads `ask`.
 */
import { bashRows } from "./case-builders.js";
import { ALLOW_FALLBACK, ASK_FALLBACK, type CaseGroup } from "./case-types.js";

const exact = bashRows({ permissions: { allow: ["Bash(git status)", "Bash(echo  hello   world)"] }, approval: ASK_FALLBACK }, [
  ["exact rule allows the same command", "git status", "allow", "Bash(git status)"],
  ["exact rule: extra spaces between words still match", "git    status", "allow", "Bash(git status)"],
  ["exact rule: leading and trailing blanks still match", "  git status  ", "allow", "Bash(git status)"],
  ["exact rule does not allow an extra argument", "git status -s", "ask"],
  ["exact rule does not allow a longer word", "git statuses", "ask"],
  ["exact rule does not allow the bare command name", "git", "ask"],
  ["exact rule does not allow another subcommand", "git stash", "ask"],
  ["a rule written with extra spaces matches the plain command", "echo hello world", "allow", "Bash(echo  hello   world)"],
  ["exact rule with two words does not allow one of them", "echo hello", "ask"],
]);

const trailingStar = bashRows({ permissions: { allow: ["Bash(ls *)", "Bash(echo hi *)"] }, approval: ASK_FALLBACK }, [
  ["trailing ' *' matches the bare command", "ls", "allow", "Bash(ls *)"],
  ["trailing ' *' matches one argument", "ls -la", "allow", "Bash(ls *)"],
  ["trailing ' *' matches several arguments", "ls -la src docs", "allow", "Bash(ls *)"],
  ["trailing ' *' keeps the word boundary (lsof)", "lsof -i", "ask"],
  ["trailing ' *' keeps the word boundary (ls2)", "ls2", "ask"],
  ["two-word prefix: bare prefix matches", "echo hi", "allow", "Bash(echo hi *)"],
  ["two-word prefix: more words match", "echo hi there you", "allow", "Bash(echo hi *)"],
  ["two-word prefix: a longer second word does not match", "echo hiya", "ask"],
  ["two-word prefix: the first word alone does not match", "echo", "ask"],
  ["two-word prefix: another second word does not match", "echo bye hi", "ask"],
]);

const legacyColon = bashRows({ permissions: { allow: ["Bash(git diff:*)", "Bash(npm run test:*)"] }, approval: ASK_FALLBACK }, [
  ["':*' matches the bare prefix", "git diff", "allow", "Bash(git diff:*)"],
  ["':*' matches the prefix with arguments", "git diff --stat HEAD", "allow", "Bash(git diff:*)"],
  ["':*' keeps the word boundary (git diff-tree)", "git diff-tree HEAD", "ask", undefined, { open: "':*' as a word-boundary prefix" }],
  ["':*' on npm run test: bare", "npm run test", "allow", "Bash(npm run test:*)"],
  ["':*' on npm run test: with arguments", "npm run test -- --watch=false", "allow", "Bash(npm run test:*)"],
  ["':*' does not match npm run test:unit", "npm run test:unit", "ask", undefined, { open: "':*' as a word-boundary prefix" }],
  ["':*' does not match another script", "npm run build", "ask"],
]);

const starInWord = bashRows({ permissions: { allow: ["Bash(echo hi*)", "Bash(ech* star)", "Bash(cat *.md)"] }, approval: ASK_FALLBACK }, [
  ["'*' inside a word matches more characters", "echo hiya", "allow", "Bash(echo hi*)"],
  ["'*' inside a word matches no characters", "echo hi", "allow", "Bash(echo hi*)"],
  ["'*' inside a word stays within that word", "echo hi there", "ask"],
  ["'*' inside a word does not match a different start", "echo ahi", "ask"],
  ["'*' inside the command name word", "echo star", "allow", "Bash(ech* star)"],
  ["'*' inside a word of a file argument", "cat README.md", "allow", "Bash(cat *.md)"],
  ["'*' inside a word does not cross into a second argument", "cat README.md package.json", "ask"],
  ["'*.md' does not match another suffix", "cat package.json", "ask"],
]);

const middleStar = bashRows({ permissions: { allow: ["Bash(git * main)"] }, approval: ASK_FALLBACK }, [
  ["the trap: 'git * main' allows a forced push to main", "git push --force origin main", "allow", "Bash(git * main)"],
  ["'git * main' allows checkout main", "git checkout main", "allow", "Bash(git * main)"],
  ["'git * main' allows any number of words in the middle", "git reset --hard origin main", "allow", "Bash(git * main)"],
  ["'git * main' with no word in the middle", "git main", "allow", "Bash(git * main)", { open: "a standalone '*' matching zero words in the middle" }],
  ["'git * main' needs main as the last word", "git push origin main --force", "ask"],
  ["'git * main' does not match main-2", "git checkout main-2", "ask"],
  ["'git * main' does not match another command", "echo git push main", "ask"],
]);

const everything = bashRows({ permissions: { allow: ["Bash(*)"] }, approval: ASK_FALLBACK }, [
  ["'Bash(*)' allows any static command", "echo anything at all", "allow", "Bash(*)"],
  ["'Bash(*)' allows a bare command", "true", "allow", "Bash(*)"],
  ["'Bash(*)' does not allow a dynamic command name", "$CMD hi", "ask", undefined, { explainOnly: "runs whatever $CMD holds" }],
]);

const bareTool = bashRows({ permissions: { allow: ["Bash"] }, approval: ASK_FALLBACK }, [
  ["a bare 'Bash' rule covers every call", "echo bare", "allow", "Bash"],
  ["a bare 'Bash' rule covers a compound line", "echo a && echo b | cat", "allow", "Bash"],
]);

const denyRules = bashRows({ permissions: { deny: ["Bash(rm -rf *)", "Bash(git push *)", "Bash(curl)"] }, approval: ALLOW_FALLBACK }, [
  ["deny prefix matches", "rm -rf build", "deny", "Bash(rm -rf *)"],
  ["deny prefix matches the bare prefix", "rm -rf", "deny", "Bash(rm -rf *)"],
  ["deny prefix matches with more words", "rm -rf build docs", "deny", "Bash(rm -rf *)"],
  ["deny prefix does not match other flags", "rm -r tmp-{n}", "allow"],
  ["deny 'git push *' matches a push", "git push origin main", "deny", "Bash(git push *)"],
  ["deny 'git push *' matches bare git push", "git push", "deny", "Bash(git push *)"],
  ["deny 'git push *' keeps the word boundary", "git pushx", "allow"],
  ["deny exact 'curl' matches bare curl", "curl", "deny", "Bash(curl)"],
  ["deny exact 'curl' does not match curl with arguments", "curl --version", "allow"],
  ["no deny rule matches: the default fallback allows", "echo fallback", "allow"],
]);

const askRules = bashRows({ permissions: { allow: ["Bash(git *)"], ask: ["Bash(git commit *)"] }, approval: ALLOW_FALLBACK }, [
  ["ask beats allow in one block", "git commit -m wip", "ask", "Bash(git commit *)"],
  ["ask rule matches the bare prefix", "git commit", "ask", "Bash(git commit *)"],
  ["allow applies where ask does not match", "git log -1", "allow", "Bash(git *)"],
  ["allow 'git *' matches bare git", "git", "allow", "Bash(git *)"],
]);

const denyOverAllow = bashRows(
  {
    permissions: { allow: ["Bash(rm *)", "Bash(echo *)"], ask: ["Bash(echo secret *)"], deny: ["Bash(rm -rf *)", "Bash(echo secret now)"] },
    approval: ASK_FALLBACK,
  },
  [
    ["deny beats allow in one block", "rm -rf build", "deny", "Bash(rm -rf *)"],
    ["allow where deny does not match", "rm -f tmp-{n}", "allow", "Bash(rm *)"],
    ["deny beats ask in one block", "echo secret now", "deny", "Bash(echo secret now)"],
    ["ask beats allow in one block (wider allow)", "echo secret later", "ask", "Bash(echo secret *)"],
    ["allow of the wider rule", "echo public", "allow", "Bash(echo *)"],
  ],
);

/** Bash pattern rows. */
export const bashPatternCases: CaseGroup = {
  group: "bash patterns",
  cases: [...exact, ...trailingStar, ...legacyColon, ...starInWord, ...middleStar, ...everything, ...bareTool, ...denyRules, ...askRules, ...denyOverAllow],
};
