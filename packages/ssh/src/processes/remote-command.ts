import { SdkError, type SpawnOptions } from "@agent-tools/core";
import { supervisedCommandLine } from "./remote-supervisor.js";
import { assertEnvironmentName, quoteShellWord } from "./shell-quote.js";

/**
 * The environment variable every process the SSH runner starts carries on the
 * remote machine (the same name as the local runner's). Descendants inherit
 * it, so those that left the process group (setsid, double fork) are still
 * found through `/proc/<pid>/environ`.
 */
export const REMOTE_TREE_TAG_VARIABLE = "AGENT_TOOLS_PROCESS_TREE";

/** Why the remote wrapper refused to start the command (its `E` marker line). */
export type RemoteStartFailure = "cwd" | "cwd-access" | "log" | "enoent" | "eacces";

/** What {@link buildRemoteCommand} needs besides the spawn options. */
export interface RemoteCommandContext {
  /** Random per spawn; starts the wrapper's marker lines. */
  readonly marker: string;
  /** The value of {@link REMOTE_TREE_TAG_VARIABLE} for this tree. */
  readonly tag: string;
  /**
   * The prctl syscall number of the remote machine when the command runs
   * under the remote supervisor (see `remote-supervisor.ts`); the marker
   * line then also names the supervisor's pid (`<marker> P <pid> <supervisor>`).
   */
  readonly supervisor?: number | undefined;
}

/** The executable the wrapper finally `exec`s: the shell or the command. */
export function remoteExecutable(options: SpawnOptions): string {
  const shell = shellPath(options.shell);
  return shell ?? options.command;
}

function shellPath(shell: SpawnOptions["shell"]): string | undefined {
  if (shell === true) return "/bin/bash";
  if (shell === undefined || shell === false) return undefined;
  if (typeof shell !== "string" || !shell.startsWith("/")) {
    throw new SdkError(
      "invalid_options",
      `ProcessRunner.spawn: shell must be true, false or an absolute path on the remote machine, got ${JSON.stringify(shell)}.`,
      {
        shell,
      },
    );
  }
  return shell;
}

/** The environment lines: exports (or `env -i` words when `extendEnv` is false). */
function environment(options: SpawnOptions, tag: string): { lines: string[]; envWords: string[] } {
  const entries = Object.entries(options.env ?? {});
  for (const [name] of entries) assertEnvironmentName(name);
  if (options.extendEnv === false) {
    const words = entries.filter(([, value]) => value !== undefined).map(([name, value]) => quoteShellWord(`${name}=${value}`, `environment variable ${name}`));
    return { lines: [], envWords: [quoteShellWord(`${REMOTE_TREE_TAG_VARIABLE}=${tag}`), ...words] };
  }
  const lines = entries.map(([name, value]) =>
    value === undefined ? `unset ${name}` : `export ${name}=${quoteShellWord(String(value), `environment variable ${name}`)}`,
  );
  lines.push(`export ${REMOTE_TREE_TAG_VARIABLE}=${quoteShellWord(tag)}`);
  return { lines, envWords: [] };
}

/**
 * The inner script, run by `/bin/sh` in the process that becomes the
 * command (every step is a builtin, then `exec`): enter cwd, set the
 * environment and the tree tag, check the log file and the executable, print
 * the marker lines (stdout: `<marker> P <pid>`, stderr: `<marker>`), redirect
 * and `exec`. A failed check prints `<marker> E <reason>` and exits 127
 * instead.
 */
function innerScript(options: SpawnOptions, context: RemoteCommandContext): string {
  const q = quoteShellWord;
  const shell = shellPath(options.shell);
  const executable = shell ?? options.command;
  const { lines, envWords } = environment(options, context.tag);
  const cwd = q(options.cwd, "cwd");
  const file = q(executable, "command");
  const script = [
    `M=${q(context.marker)}`,
    `fail() { printf '%s E %s\\n' "$M" "$1"; exit 127; }`,
    `[ -d ${cwd} ] || fail cwd`,
    `cd ${cwd} 2>/dev/null || fail cwd-access`,
    ...lines,
  ];
  if (options.isolated) script.push("trap '' HUP");
  if (options.logFile !== undefined) script.push(`{ true >>${q(options.logFile, "logFile")}; } 2>/dev/null || fail log`);
  if (shell !== undefined || executable.includes("/")) {
    script.push(`[ -e ${file} ] || fail enoent`, `{ [ -f ${file} ] && [ -x ${file} ]; } || fail eacces`);
  } else {
    script.push(`command -v ${file} >/dev/null 2>&1 || fail enoent`);
  }
  // Under the supervisor the command's parent is the supervisor: the marker line names it too.
  script.push(context.supervisor === undefined ? `printf '%s P %s\\n' "$M" "$$"` : `printf '%s P %s %s\\n' "$M" "$$" "$PPID"`, `printf '%s\\n' "$M" >&2`);
  if (options.logFile !== undefined) script.push(`exec >>${q(options.logFile, "logFile")} 2>&1`);
  // A piped stdin is the channel's own: the command reads what `stdin.write` sends.
  if (options.input === undefined && options.stdin !== "pipe") script.push("exec </dev/null");
  const argv = shell !== undefined ? [file, "-c", q(options.command, "command")] : [file, ...(options.args ?? []).map((arg) => q(String(arg), "argument"))];
  script.push(envWords.length > 0 ? `exec env -i ${envWords.join(" ")} ${argv.join(" ")}` : `exec ${argv.join(" ")}`);
  return script.join("\n");
}

/**
 * The command line of the exec channel that runs `options` on the remote
 * machine. The login shell `exec`s `/bin/sh`, which makes sure it leads its
 * own process group (OpenSSH's session process already called `setsid`; on a
 * server that did not, it `exec`s `setsid`, which keeps the pid), then runs
 * the inner script, so the remote pid the marker reports is the command's pid
 * and its process-group id. Needs a POSIX login shell (sh, bash, dash, zsh, ksh).
 * With `context.supervisor` the login shell `exec`s the remote supervisor
 * instead, which runs the inner script in a new session of its own.
 *
 * @example
 * buildRemoteCommand({ command: "ls", cwd: "/srv" }, { marker: "AT1f2e", tag: "r9a.1" });
 */
export function buildRemoteCommand(options: SpawnOptions, context: RemoteCommandContext): string {
  const inner = innerScript(options, context);
  if (context.supervisor !== undefined) return supervisedCommandLine({ mode: "exec", prctl: context.supervisor, name: context.tag, script: inner });
  // The inner script travels as the prelude's $1, so it is quoted once for the login shell, not twice.
  const prelude = [
    "s=$1",
    // Field 5 of /proc/<pid>/stat is the process group; after ") " it is the third word.
    `if read -r l 2>/dev/null </proc/$$/stat; then set -- \${l##*) }; if [ "$3" != "$$" ] && command -v setsid >/dev/null; then exec setsid /bin/sh -c "$s"; fi; fi`,
    'eval "$s"',
  ].join("\n");
  return `exec /bin/sh -c ${quoteShellWord(prelude)} agent-tools ${quoteShellWord(inner)}`;
}

/** The message of a start failure, in the local runner's words (`spawn <file> ENOENT`) plus the reason. */
export function startFailureMessage(reason: string, options: SpawnOptions): string {
  const file = remoteExecutable(options);
  switch (reason) {
    case "cwd":
      return `spawn ${file} ENOENT: the working directory ${JSON.stringify(options.cwd)} does not exist on the remote machine`;
    case "cwd-access":
      return `spawn ${file} EACCES: the working directory ${JSON.stringify(options.cwd)} cannot be entered on the remote machine`;
    case "log":
      return `spawn ${file} EACCES: the log file ${JSON.stringify(options.logFile)} cannot be opened for appending on the remote machine`;
    case "eacces":
      return `spawn ${file} EACCES`;
    default:
      return `spawn ${file} ENOENT`;
  }
}
