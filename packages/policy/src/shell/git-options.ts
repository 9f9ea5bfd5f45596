import type { ShellWord } from "./command-parts.js";

/** Global options of git that take the next word as their value (`git -C dir push`). */
const GIT_OPTIONS_WITH_VALUE: ReadonlySet<string> = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--exec-path",
  "--config-env",
  "--super-prefix",
  "--attr-source",
]);

/** What git runs after its global options. */
export interface GitCommand {
  /** Index of the subcommand (`push` in `git -C . push`); absent when git has no global options or no subcommand. */
  readonly subcommandStart?: number;
  /** `-c name=value` / `--config-env`: configuration that can run commands (`alias.x=!cmd`, `core.fsmonitor`, `core.pager`, `core.sshCommand`). */
  readonly setsConfiguration: boolean;
}

/**
 * Reads git's global options: `git -C . push`, `git --git-dir=x push` and
 * `git -c alias.p=push p` run a subcommand that a rule on `git push` must
 * see. The options end at the first word that does not start with `-`.
 *
 * @example
 * gitCommandOf(words("git -C . push origin")); // { subcommandStart: 3, setsConfiguration: false }
 */
export function gitCommandOf(words: readonly ShellWord[]): GitCommand {
  let index = 1;
  let setsConfiguration = false;
  while (index < words.length) {
    const word = words[index];
    if (word.dynamic || !word.text.startsWith("-")) break;
    const text = word.text;
    if (text === "-c" || text.startsWith("--config-env")) setsConfiguration = true;
    index += GIT_OPTIONS_WITH_VALUE.has(text) ? 2 : 1;
  }
  const subcommandStart = index > 1 && index < words.length ? index : undefined;
  return { setsConfiguration, ...(subcommandStart === undefined ? {} : { subcommandStart }) };
}
