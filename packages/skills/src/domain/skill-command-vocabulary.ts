/**
 * The words the Bash skill guard knows (see skill-command-policy.ts): which
 * programs read, change, copy or link files, which run a script, which wrap
 * another command, and the shell's own declarations and assignments.
 */

/** Commands that read, list or search files: refused on skill paths. */
export const SKILL_READ_VERBS: ReadonlySet<string> = new Set([
  ...["cat", "head", "tail", "less", "more", "ls", "find", "grep", "rg", "sed", "awk"],
  ...["egrep", "fgrep", "tree", "bat", "nl", "tac", "xxd", "od", "strings", "base64", "fd"],
]);

/** Commands that change files: refused on skill paths (changes go through Write / Edit / Delete or SkillsManager). */
export const SKILL_CHANGE_VERBS: ReadonlySet<string> = new Set(["rm", "rmdir", "mv", "touch", "chmod", "chown", "ln", "truncate", "tee", "mkdir"]);

/** Programs that run a script file given as their first argument (running a skill's script this way is allowed). */
export const SKILL_SCRIPT_RUNNERS: ReadonlySet<string> = new Set([
  ...["python", "python3", "python2", "node", "nodejs", "deno", "bun", "tsx", "ruby", "perl", "php", "lua", "Rscript"],
  ...["bash", "sh", "zsh", "dash", "ksh", "source", "."],
]);

/** Read verbs that walk folders without a flag. */
export const RECURSIVE_READ_VERBS: ReadonlySet<string> = new Set(["find", "rg", "tree", "fd"]);
export const COPY_VERBS: ReadonlySet<string> = new Set(["cp", "rsync", "install"]);
/** Verbs that make a copy of, or a link to, what they are given: refused on a folder holding the skills root. */
export const LINK_OR_COPY_VERBS: ReadonlySet<string> = new Set(["ln", ...COPY_VERBS]);
export const CD_VERBS: ReadonlySet<string> = new Set(["cd", "pushd"]);
export const WRAPPERS: ReadonlySet<string> = new Set(["sudo", "env", "command", "exec", "nohup", "time", "nice", "xargs", "builtin"]);
export const SHELLS: ReadonlySet<string> = new Set(["sh", "bash", "zsh", "dash", "ksh", "eval"]);
export const DECLARATIONS: ReadonlySet<string> = new Set(["export", "declare", "local", "readonly", "typeset"]);
export const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;
/** Interpreter flags whose next word is inline code, not a script file. */
export const INLINE_CODE_FLAGS: ReadonlySet<string> = new Set(["-c", "-e", "-E", "-p", "-r", "--eval", "--print", "-command"]);
