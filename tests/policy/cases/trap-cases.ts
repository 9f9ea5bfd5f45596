/**
 * Ways around a rule that a model (or a careless command) may take:
 * command substitutions hidden in assignments, tests and redirections,
 * combined shell flags, absolute command paths, `find -exec`, `trap`,
 * comments and line continuations; path forms the tools accept (`file://`,
 * `workspace:`, backslashes, Image's `paths`), writes through links, and
 * tool names in another case (the registry resolves them).
 */
import { bashRows, callRows } from "./case-builders.js";
import { ALLOW_FALLBACK, ASK_FALLBACK, type CaseGroup } from "./case-types.js";

const shellTraps = bashRows({ permissions: { deny: ["Bash(rm *)"] }, approval: ALLOW_FALLBACK }, [
  ["$(...) in a bare assignment", "X=$(rm -rf build)", "deny", "Bash(rm *)"],
  ["$(...) in an export", "export FOO=$(rm -rf build)", "deny", "Bash(rm *)"],
  ["$(...) in a local declaration inside a function", "f() { local x=$(rm -rf build); }; f", "deny", "Bash(rm *)"],
  ["$(...) inside [[ ]]", "[[ -n $(rm -rf build) ]]", "deny", "Bash(rm *)"],
  ["$(...) inside an arithmetic expansion", "echo $(( $(rm -rf build; echo 1) + 1 ))", "deny", "Bash(rm *)"],
  ["$(...) in a redirection target", "echo hi > $(rm -rf build; echo /dev/null)", "deny", "Bash(rm *)"],
  ["process substitution as a redirection target", "echo hi > >(rm -rf build)", "deny", "Bash(rm *)"],
  [
    "a command after a heredoc's start on the same line",
    "cat <<EOF; rm -rf build\nhi\nEOF",
    "deny",
    "Bash(rm *)",
    { open: "valid Bash that tree-sitter-bash may not parse; a deny rule should still match the readable part" },
  ],
  ["combined shell flags -lc", "bash -lc 'rm -rf build'", "deny", "Bash(rm *)"],
  ["shell flags before -c", "sh -e -c 'rm -rf build'", "deny", "Bash(rm *)"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
  ["a word built from ${IFS}", "rm${IFS}-rf${IFS}build", "deny", "Bash(rm *)"],
  ["ANSI-C quoted command name", "$'\\x72m' -rf build", "deny", "Bash(rm *)"],
  ["an absolute path to the command", "/bin/rm -rf build", "deny", "Bash(rm *)", { open: "a command named by its path matched by its basename" }],
  ["command -p runs its command", "command -p rm -rf build", "deny", "Bash(rm *)"],
  ["find -exec runs its command", "find build -exec rm -rf {} +", "deny", "Bash(rm *)", { open: "find -exec treated as a wrapper like xargs" }],
  ["a trap string is code", "trap 'rm -rf build' EXIT", "deny", "Bash(rm *)", { open: "trap's string parsed like eval" }],
  ["a background job", "rm -rf build &", "deny", "Bash(rm *)"],
  ["negation with !", "! rm -rf build", "deny", "Bash(rm *)"],
  ["inside a pipeline in a subshell in $(...)", "echo $( (ls | rm -rf build) )", "deny", "Bash(rm *)"],
  ["a line continuation inside the command", "rm \\\n -rf build", "deny", "Bash(rm *)"],
]);

const allowTraps = bashRows({ permissions: { allow: ["Bash(git status)", "Bash(echo *)"] }, approval: ASK_FALLBACK }, [
  ["a trailing comment is not a part", "git status # rm -rf build", "allow", "Bash(git status)"],
  ["a trailing semicolon", "git status;", "allow", "Bash(git status)"],
  ["a line continuation between words", "git \\\n status", "allow", "Bash(git status)"],
  ["a comment does not hide a second line", "git status # x\ntouch t-{n}", "ask"],
  ["a subcommand flag before the subcommand", "git -C src status", "ask"],
  ["echo with a $(...) of a command not allowed", "echo $(touch t-{n})", "ask"],
  ["an assignment with $(...) of a command not allowed", "X=$(touch t-{n}) echo hi", "ask"],
  ["a redirection target from $(...)", "echo hi > $(echo /dev/null)", "ask"],
]);

const pathTraps = callRows({ permissions: { deny: ["Read(.env)", "Edit(.env)", "Read(/secrets/**)"] }, approval: ALLOW_FALLBACK }, [
  ["a file:// URL to a denied file", "Read", { path: "file://{work}/.env" }, "deny", "Read(.env)"],
  ["a workspace: path to a denied file", "Read", { path: "workspace:config/.env" }, "deny", "Read(.env)"],
  ["backslashes in the path", "Read", { path: "src\\.env" }, "deny", "Read(.env)"],
  ["a doubled slash in the path", "Read", { path: "src//.env" }, "deny", "Read(.env)"],
  ["a trailing ./ segment", "Read", { path: "./src/./.env" }, "deny", "Read(.env)"],
  ["Image with several paths, one denied", "Image", { paths: ["docs/logo.png", "secrets/key.pem"] }, "deny", "Read(/secrets/**)"],
  ["a write through a link to a denied file", "Write", { path: "src/link-env", content: "x" }, "deny", "Edit(.env)"],
  ["an edit through a link to a denied file", "Edit", { path: "src/link-env", old_string: "SECRET", new_string: "X" }, "deny", "Edit(.env)"],
  ["Image's source naming a denied file", "Image", { source: "config/.env" }, "deny", "Read(.env)"],
  ["Image's sources naming a denied file", "Image", { sources: ["docs/logo.png", "src/.env"] }, "deny", "Read(.env)"],
  ["Delete of a folder holding a denied file", "Delete", { path: "config" }, "deny", "Edit(.env)"],
  ["a read through a link to a denied folder", "Read", { path: "src/link-secrets/nested/id.pem" }, "deny", "Read(/secrets/**)"],
]);

const linkWalks = callRows({ permissions: { deny: ["Read(/secrets/**)"] }, approval: ALLOW_FALLBACK }, [
  ["a walk of a link to a denied folder", "List", { path: "src/link-secrets" }, "deny", "Read(/secrets/**)"],
  ["a Grep of a link to a denied folder", "Grep", { pattern: "KEY", path: "src/link-secrets" }, "deny", "Read(/secrets/**)"],
  ["a Glob under a link to a denied folder", "Glob", { pattern: "*.pem", path: "src/link-secrets/nested" }, "deny", "Read(/secrets/**)"],
]);

const nameTraps = [
  ...callRows({ permissions: { deny: ["Bash(rm *)", "Read(.env)"] }, approval: ALLOW_FALLBACK }, [
    ["a tool name in lower case resolves to Bash", "bash", { command: "rm -rf build" }, "deny", "Bash(rm *)"],
    ["a tool name in upper case resolves to Read", "READ", { path: ".env" }, "deny", "Read(.env)"],
  ]),
  ...callRows({ permissions: { allow: ["Bash(echo *)"] }, approval: ASK_FALLBACK }, [
    ["an allow rule applies to a name in another case", "BASH", { command: "echo case" }, "allow", "Bash(echo *)"],
  ]),
];

/** Trap rows. */
export const trapCases: CaseGroup = { group: "traps", cases: [...shellTraps, ...allowTraps, ...pathTraps, ...linkWalks, ...nameTraps] };
