/**
 * The shell that closes, inside the sandbox, every descriptor above 2 before
 * the confined command starts. Bash, because `dash` (`/bin/sh` on Debian)
 * cannot name a descriptor above 9 in a redirection.
 */
export const SANDBOX_DESCRIPTOR_CLOSER = "/bin/bash";

/**
 * No startup file: bash would otherwise run `~/.bashrc` whenever its stdin is
 * a socket (libuv's stdio pipes are socket pairs) and `$BASH_ENV` always.
 */
const CLOSER_FLAGS: readonly string[] = ["--norc", "--posix"];

/** Closes each open descriptor but 0, 1 and 2 (the glob's own directory descriptor is already closed again when the loop runs). */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
const CLOSE_LOOP = "for f in /proc/self/fd/*; do n=${f##*/}; case $n in 0|1|2) ;; *) exec {n}>&- ;; esac; done; ";

/**
 * Keeps bash from adding `SHLVL` to an environment without one: `exec`
 * writes the decremented level back and exports it; through this name
 * reference it lands in an array element, which is never exported.
 */
const NO_SHELL_LEVEL = "unset SHLVL; declare -a level; declare -n SHLVL='level[0]'; ";

/** A value as one single-quoted shell word. */
function quoted(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/**
 * The program and arguments that run `command` (program first, its
 * arguments exact, passed as `"$@"`, never re-quoted) with only descriptors
 * 0, 1 and 2 open: a descriptor the host inherited without close-on-exec
 * (above libuv's sweep at start, e.g. one a shell or job runner opened as
 * fd 200) would otherwise reach the confined command through bubblewrap,
 * a host file to write or a socket to reach past the network cut. The
 * closer `exec`s the command (same process, so exit codes and signals are
 * its own) and keeps the environment as given: bash's own `PWD` and
 * `SHLVL` are kept out when `environment` has them not (and `PWD` set back
 * when it has another; a numeric `SHLVL` comes out as it went in).
 *
 * @example
 * withDescriptorCloser(["node", "server.js"], { PATH: "/usr/bin" });
 * // ["/bin/bash", "--norc", "--posix", "-c", "for f in /proc/self/fd/*; ...; unset PWD; unset SHLVL; ...; exec \"$@\"", "agent-tools-close-fds", "node", "server.js"]
 */
export function withDescriptorCloser(command: readonly string[], environment: Readonly<Record<string, string | undefined>>): string[] {
  const pwd = environment.PWD === undefined ? "unset PWD; " : `export PWD=${quoted(environment.PWD)}; `;
  const shellLevel = environment.SHLVL === undefined ? NO_SHELL_LEVEL : "";
  return [SANDBOX_DESCRIPTOR_CLOSER, ...CLOSER_FLAGS, "-c", `${CLOSE_LOOP}${pwd}${shellLevel}exec "$@"`, "agent-tools-close-fds", ...command];
}
