/** Which Bash path a command is about to take. */
export type ShellMode = "synchronous" | "resumable" | "managed";

/** What a {@link CommandPolicy} is asked about. */
export interface CommandPolicyRequest {
  /** The command as the model wrote it. */
  readonly command: string;
  /** The resolved absolute working directory. */
  readonly cwd: string;
  /** The cwd argument as given, if any. */
  readonly cwdInput?: string;
  readonly mode: ShellMode;
  /** The tool asking: `Bash` or `ManagedProcess`. */
  readonly toolName: string;
}

/**
 * A hook that may refuse a command before it is spawned (the skills package
 * adds its access policy here). Return a message for the model to refuse, or
 * undefined to allow.
 */
export type CommandPolicy = (request: CommandPolicyRequest) => string | undefined | Promise<string | undefined>;

/**
 * The NUL guard: a shell command line (or its cwd) cannot carry a NUL byte,
 * because the operating system passes arguments as NUL-terminated strings
 * (Node's spawn throws ERR_INVALID_ARG_VALUE). Returns a message naming the
 * argument and the first NUL's position, or undefined.
 *
 * @example
 * checkNulByte("Bash", "command", "echo a\u0000b"); // "Bash `command` contains a NUL byte (at character 7)..."
 */
export function checkNulByte(toolName: string, argumentName: string, value: string): string | undefined {
  const index = value.indexOf("\u0000");
  if (index < 0) return undefined;
  return (
    `${toolName} \`${argumentName}\` contains a NUL byte (at character ${index + 1}); NUL bytes cannot be passed to a shell command. ` +
    "Remove it. To produce a NUL byte in the output, let the command create it, e.g. `printf '\\0'`."
  );
}

/** A top-level segment of a command line and how it ends. */
interface Segment {
  text: string;
  /** True when the segment ends with a lone `&` (run in the background). */
  background: boolean;
}

/**
 * Splits a command into top-level segments at `;`, newlines, `&&`, `||`, `|`
 * and `&`, aware of quotes, escapes, `#` comments and `$( )` / `( )` / backtick
 * nesting (nested text stays inside its segment).
 */
export function splitCommandSegments(command: string): Segment[] {
  const segments: Segment[] = [];
  let current = "";
  let quote: "'" | '"' | "`" | undefined;
  let depth = 0;
  const push = (background: boolean) => {
    segments.push({ text: current, background });
    current = "";
  };
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index]!;
    const next = command[index + 1];
    if (quote) {
      current += char;
      if (char === "\\" && quote !== "'" && next !== undefined) {
        current += next;
        index += 1;
      } else if (char === quote) quote = undefined;
      continue;
    }
    if (char === "\\" && next !== undefined) {
      current += char + next;
      index += 1;
      continue;
    }
    if (char === "'" || char === '"' || char === "`") {
      quote = char;
      current += char;
      continue;
    }
    if (char === "#" && (current === "" || /\s$/.test(current))) {
      while (index < command.length && command[index] !== "\n") index += 1;
      index -= 1;
      continue;
    }
    if (char === "(") depth += 1;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (depth > 0) {
      current += char;
      continue;
    }
    if (char === ";" || char === "\n") {
      push(false);
    } else if (char === "&" && next === "&") {
      push(false);
      index += 1;
    } else if (char === "|" && next === "|") {
      push(false);
      index += 1;
    } else if (char === "|") {
      push(false);
    } else if (char === "&" && (next === ">" || command[index - 1] === ">" || command[index - 1] === "<")) {
      current += char; // &> redirection or >&2 / <&0 duplication
    } else if (char === "&") {
      push(true);
    } else {
      current += char;
    }
  }
  if (current.trim() !== "") push(false);
  return segments.filter((segment) => segment.text.trim() !== "" || segment.background);
}

function redirectsStdout(text: string): boolean {
  return /(^|[^0-9&<>])(1?>>?|&>>?)\s*\S/.test(text);
}

function redirectsStderr(text: string): boolean {
  return /(2>>?|&>>?)\s*\S/.test(text) || /2>&1/.test(text);
}

/**
 * The background guard: a bare `&` is refused unless that segment redirects
 * both stdout and stderr; such a process would otherwise hold the output
 * pipes or be killed with the command. Returns a message, or undefined.
 */
export function checkBackgroundCommand(command: string): string | undefined {
  for (const segment of splitCommandSegments(command)) {
    if (!segment.background) continue;
    if (redirectsStdout(segment.text) && redirectsStderr(segment.text)) continue;
    return (
      `Refused: \`${segment.text.trim()} &\` runs in the background without redirecting its output. ` +
      "A background process that keeps stdout/stderr open blocks this tool and is ended with the command. " +
      'For a long-running command call Bash without `&` and follow it with ProcessWait, or use ManagedProcess(action="start"). ' +
      "If you really need a detached process, redirect both streams: `nohup cmd > /tmp/agent-task.log 2>&1 < /dev/null &`."
    );
  }
  return undefined;
}

/**
 * The sleep guard (resumable mode): a leading `sleep N` with N >= 2 is
 * refused; the model should wait with ProcessWait instead. `sleep 0.5` and
 * `echo ready; sleep 28` are allowed.
 */
export function checkLeadingSleep(command: string): string | undefined {
  const match = /^\s*sleep\s+(\d+(?:\.\d+)?)s?\s*(?:$|&&|\|\||;|\n)/.exec(command);
  if (!match || Number(match[1]) < 2) return undefined;
  return (
    "Do not use Bash sleep to wait for a running command. Call ProcessWait with the Bash session_id (and the latest cursor) instead; " +
    "it returns as soon as the command finishes or prints more output. To wait for something else, run the command that checks it directly."
  );
}
