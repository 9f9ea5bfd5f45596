import type { ShellWord } from "./command-parts.js";
import { gitCommandOf } from "./git-options.js";

/**
 * What a simple command does with the rest of its words, beyond running its own program.
 * - `wrapper`: `env`, `sudo`, `xargs`, `timeout`, `nice`, `nohup`, `time`, `command`, `exec`, `stdbuf` run the command that starts at `innerStart`;
 * - `exec`: `find -exec` runs commands given between `-exec` and `;` or `+`;
 * - `script`: `sh -c '<static>'`, `eval <static words>`, `su -c '<static>'`, `trap '<static>' SIGNAL` and `watch <static words>` run a
 *   command line given as a string;
 * - `blocked`: the command runs code this parser cannot see (a shell reading stdin or a file, `source`, a dynamic `-c` string, `env -S`).
 */
export type CommandAnalysis =
  | {
      readonly kind: "wrapper";
      readonly innerStart: number;
      readonly assignments: readonly string[];
      /** `xargs` appends words read from stdin. */
      readonly appendsInput: boolean;
      /** The inner command keeps the command name (`git -C . push` -> `git push`). */
      readonly keepsName?: boolean;
      /** The command may also run commands this policy cannot read (`git -c alias.x=!cmd`); see `CommandPart.hidesCommands`. */
      readonly hidesCommands?: boolean;
    }
  /** `find ... -exec cmd {} ;` (also `-execdir`, `-ok`, `-okdir`): each command runs with `{}` replaced by a path; `end` is exclusive. */
  | { readonly kind: "exec"; readonly ranges: readonly { readonly start: number; readonly end: number }[] }
  | { readonly kind: "script"; readonly script: string }
  | { readonly kind: "blocked"; readonly reason: string }
  | { readonly kind: "plain" };

interface OptionTable {
  /** Short options that take an argument (`-u root` or `-uroot`). */
  readonly short: string;
  /** Long options that take a separate argument (`--user root`; `--user=root` is always one word). */
  readonly long: readonly string[];
  /** Words that are an option by their shape besides `-x` (nice's `-10`). */
  readonly numericFlags?: boolean;
}

const WRAPPER_OPTIONS: Readonly<Record<string, OptionTable>> = {
  env: { short: "uCSP", long: ["--unset", "--chdir", "--split-string"] },
  sudo: {
    short: "ugCDhprtTU",
    long: ["--user", "--group", "--close-from", "--chdir", "--host", "--prompt", "--role", "--type", "--command-timeout", "--other-user"],
  },
  xargs: { short: "adEILnPs", long: ["--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--max-lines", "--process-slot-var"] },
  timeout: { short: "sk", long: ["--signal", "--kill-after"] },
  nice: { short: "n", long: ["--adjustment"], numericFlags: true },
  nohup: { short: "", long: [] },
  time: { short: "fo", long: ["--format", "--output"] },
  command: { short: "", long: [] },
  exec: { short: "a", long: [] },
  stdbuf: { short: "ioe", long: ["--input", "--output", "--error"] },
  doas: { short: "uC", long: [] },
  setsid: { short: "", long: [] },
  ionice: { short: "cnpPu", long: ["--class", "--classdata", "--pid", "--pgid", "--uid"] },
  coproc: { short: "", long: [] },
  busybox: { short: "", long: [] },
  toybox: { short: "", long: [] },
  chrt: { short: "", long: [] },
  taskset: { short: "", long: [] },
  flock: { short: "wE", long: ["--timeout", "--wait", "--conflict-exit-code"] },
  unshare: { short: "SGRw", long: ["--setuid", "--setgid", "--root", "--wd", "--map-user", "--map-group", "--map-users", "--map-groups", "--propagation"] },
  // `builtin command rm x`, `builtin exec rm x`: the builtin named next runs the rest.
  builtin: { short: "", long: [] },
};

/** Words a wrapper reads after its options and before the command it runs. */
const POSITIONALS_BEFORE_COMMAND: Readonly<Record<string, number>> = { timeout: 1, chrt: 1, taskset: 1, flock: 1 };

/** `watch` joins its words and runs them with `sh -c`. */
const WATCH_OPTIONS: OptionTable = { short: "nq", long: ["--interval", "--equexit"] };

/** Shells whose `-c` string is parsed as a nested command line. */
const SHELLS: ReadonlySet<string> = new Set(["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh"]);

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

/** The program name of a command word: `/usr/bin/sudo` -> `sudo`. */
export function commandBaseName(text: string): string {
  return text.slice(text.lastIndexOf("/") + 1);
}

/** Decides whether the simple command `words` (command name first) runs another command; see {@link CommandAnalysis}. */
export function analyzeCommand(words: readonly ShellWord[]): CommandAnalysis {
  const head = words[0];
  if (!head || head.dynamic) return { kind: "plain" };
  const name = commandBaseName(head.text);
  if (SHELLS.has(name)) return analyzeShell(words, name);
  if (name === "eval") return analyzeEval(words);
  if (name === "source" || name === ".") return { kind: "blocked", reason: `"${name}" runs a script file this policy cannot read` };
  if (name === "find") return analyzeFind(words);
  if (name === "watch") return analyzeWatch(words);
  if (name === "trap") return analyzeTrap(words);
  if (name === "su") return analyzeSu(words);
  if (name === "alias") return analyzeAlias(words);
  if (name === "git") return analyzeGit(words);
  if (name === "flock" || name === "script") {
    // `-c cmd`, a cluster ending in c (`script -qc cmd`), or `--command=cmd`: the string runs with a shell.
    const command = words.findIndex((word) => !word.dynamic && (/^-[A-Za-z]*c$/.test(word.text) || word.text === "--command"));
    if (command > 0) return words[command + 1] ? scriptOf([words[command + 1]], `"${name} -c"`) : { kind: "plain" };
    const joined = words.find((word) => word.text.startsWith("--command="));
    if (joined) return scriptOf([{ ...joined, text: joined.text.slice("--command=".length) }], `"${name} --command"`);
  }
  const table = WRAPPER_OPTIONS[name];
  return table ? analyzeWrapper(words, name, table) : { kind: "plain" };
}

function analyzeWrapper(words: readonly ShellWord[], name: string, table: OptionTable): CommandAnalysis {
  let index = skipOptions(words, table);
  if (typeof index === "string") return { kind: "blocked", reason: index };
  const assignments: string[] = [];
  index += POSITIONALS_BEFORE_COMMAND[name] ?? 0; // timeout's duration, chrt's priority, taskset's mask, flock's lock file
  if (name === "env" || name === "sudo") {
    for (let word = words[index]; word && !word.dynamic && ASSIGNMENT.test(word.text); word = words[++index]) {
      assignments.push(ASSIGNMENT.exec(word.text)?.[1] ?? word.text);
    }
  }
  if (index >= words.length) return { kind: "plain" };
  return { kind: "wrapper", innerStart: index, assignments, appendsInput: name === "xargs" };
}

/** The index of the first word after the options, or a reason when an option hides a command (`env -S`). */
function skipOptions(words: readonly ShellWord[], table: OptionTable): number | string {
  let index = 1;
  while (index < words.length) {
    const word = words[index];
    if (word.dynamic) return index;
    const text = word.text;
    if (text === "--") return index + 1;
    if (!text.startsWith("-") || text === "-") return index;
    if (text.startsWith("--")) {
      if (text.startsWith("--split-string")) return `"env ${text}" splits a string into a command this policy cannot check`;
      index += table.long.includes(text) ? 2 : 1;
      continue;
    }
    if (table.numericFlags && /^-\d+$/.test(text)) {
      index++;
      continue;
    }
    const consumed = shortOptionWords(text, table.short);
    if (text.includes("S") && table.short.includes("S")) return `"env -S" splits a string into a command this policy cannot check`;
    index += consumed;
  }
  return index;
}

/** 2 when a short-option cluster ends with an option that takes the next word as its argument, else 1. */
function shortOptionWords(text: string, withArgument: string): number {
  for (let position = 1; position < text.length; position++) {
    if (withArgument.includes(text[position])) return position === text.length - 1 ? 2 : 1;
  }
  return 1;
}

function analyzeShell(words: readonly ShellWord[], name: string): CommandAnalysis {
  let commandFlag = false;
  let index = 1;
  for (; index < words.length; index++) {
    const word = words[index];
    if (word.dynamic) break;
    const text = word.text;
    if (text === "--" || text === "-") {
      index++;
      break;
    }
    if (text === "--version" || text === "--help") return { kind: "plain" };
    if (text === "--rcfile" || text === "--init-file") return { kind: "blocked", reason: `"${name} ${text}" runs a script file this policy cannot read` };
    if (!/^[-+]/.test(text)) break;
    if (text.startsWith("--")) continue;
    if (/^[-+][oO]$/.test(text)) index++;
    else if (text.startsWith("-") && text.includes("c")) commandFlag = true;
  }
  if (!commandFlag) {
    const source = index < words.length ? "a script file" : "its standard input";
    return { kind: "blocked", reason: `"${name}" runs commands from ${source}, which this policy cannot read` };
  }
  const script = words[index];
  if (!script) return { kind: "blocked", reason: `"${name} -c" has no command string` };
  if (script.dynamic) return { kind: "blocked", reason: `the command string of "${name} -c" is decided at run time` };
  return { kind: "script", script: script.text };
}

function analyzeEval(words: readonly ShellWord[]): CommandAnalysis {
  const rest = words[1]?.text === "--" ? words.slice(2) : words.slice(1);
  return scriptOf(rest, '"eval"');
}

const FIND_EXEC_ACTIONS: ReadonlySet<string> = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

function analyzeFind(words: readonly ShellWord[]): CommandAnalysis {
  const ranges: { start: number; end: number }[] = [];
  for (let index = 1; index < words.length; index++) {
    if (words[index].dynamic || !FIND_EXEC_ACTIONS.has(words[index].text)) continue;
    const start = index + 1;
    let end = start;
    while (end < words.length && !isFindTerminator(words, end)) end++;
    if (end > start) ranges.push({ start, end });
    index = end;
  }
  return ranges.length > 0 ? { kind: "exec", ranges } : { kind: "plain" };
}

/** `;` ends an `-exec` command; `+` does when it follows `{}`. */
function isFindTerminator(words: readonly ShellWord[], index: number): boolean {
  const word = words[index];
  if (word.dynamic) return false;
  return word.text === ";" || (word.text === "+" && words[index - 1]?.text === "{}");
}

function analyzeWatch(words: readonly ShellWord[]): CommandAnalysis {
  const index = skipOptions(words, WATCH_OPTIONS);
  if (typeof index === "string" || index >= words.length) return { kind: "plain" };
  return scriptOf(words.slice(index), '"watch"');
}

/** `trap 'handler' SIGNAL...` runs the handler later; `trap - SIGNAL`, `trap -p`, `trap -l` run nothing. */
function analyzeTrap(words: readonly ShellWord[]): CommandAnalysis {
  const handler = words[1]?.text === "--" ? words[2] : words[1];
  if (!handler) return { kind: "plain" };
  if (!handler.dynamic && (handler.text === "" || handler.text.startsWith("-"))) return { kind: "plain" };
  return scriptOf([handler], '"trap"');
}

/** `su [user] -c 'cmd'` runs the string with the user's shell; `su` alone opens a shell that reads its standard input. */
function analyzeSu(words: readonly ShellWord[]): CommandAnalysis {
  for (let index = 1; index < words.length; index++) {
    const text = words[index].text;
    if (words[index].dynamic) continue;
    if (text === "-c" || text === "--command") return words[index + 1] ? scriptOf([words[index + 1]], '"su -c"') : { kind: "plain" };
    if (text.startsWith("--command=")) return scriptOf([{ text: text.slice("--command=".length), dynamic: false }], '"su -c"');
  }
  return { kind: "blocked", reason: `"su" opens a shell that runs commands from its standard input, which this policy cannot read` };
}

/** `alias x='rm -rf'`: with `shopt -s expand_aliases` the value runs wherever `x` is the command; it is parsed like `eval`. */
function analyzeAlias(words: readonly ShellWord[]): CommandAnalysis {
  const values = words.slice(1).flatMap((word) => {
    const equals = word.text.indexOf("=");
    if (equals <= 0) return [];
    return [{ text: word.text.slice(equals + 1), dynamic: word.dynamic }];
  });
  if (values.length === 0) return { kind: "plain" };
  if (values.some((value) => value.dynamic)) return { kind: "blocked", reason: `the command an "alias" runs is decided at run time` };
  return { kind: "script", script: values.map((value) => value.text).join("\n") };
}

/** `git -C . push`: `git push` is a part of its own; `git -c ...` may run configured commands (`alias.x=!cmd`, `core.fsmonitor`). */
function analyzeGit(words: readonly ShellWord[]): CommandAnalysis {
  const git = gitCommandOf(words);
  if (git.subcommandStart === undefined)
    return git.setsConfiguration ? { kind: "wrapper", innerStart: words.length, assignments: [], appendsInput: false, hidesCommands: true } : { kind: "plain" };
  return {
    kind: "wrapper",
    innerStart: git.subcommandStart,
    assignments: [],
    appendsInput: false,
    keepsName: true,
    ...(git.setsConfiguration ? { hidesCommands: true } : {}),
  };
}

function scriptOf(words: readonly ShellWord[], label: string): CommandAnalysis {
  if (words.some((word) => word.dynamic)) return { kind: "blocked", reason: `the command run by ${label} is decided at run time` };
  return { kind: "script", script: words.map((word) => word.text).join(" ") };
}
