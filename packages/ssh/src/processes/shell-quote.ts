import { SdkError } from "@agent-tools/core";

/** Environment variable names the remote wrapper accepts: a POSIX shell name. */
const ENVIRONMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Quotes one word for a POSIX shell on the remote machine: single quotes,
 * each `'` written as `'\''`. A NUL byte cannot pass through a command line
 * and is refused with an `SdkError`.
 *
 * @example
 * quoteShellWord("it's"); // 'it'\''s'
 */
export function quoteShellWord(value: string, what = "value"): string {
  if (value.includes("\0")) throw new SdkError("invalid_options", `The ${what} contains a NUL byte, which a remote command line cannot carry.`, { what });
  return `'${value.replace(/'/g, "'\\''")}'`;
}

/**
 * Checks an environment variable name for the remote shell's `export`:
 * letters, digits and `_`, not starting with a digit. Throws an `SdkError`
 * naming the key otherwise.
 *
 * @example
 * assertEnvironmentName("NODE_ENV"); // ok
 * assertEnvironmentName("A-B"); // throws SdkError invalid_options
 */
export function assertEnvironmentName(name: string): void {
  if (!ENVIRONMENT_NAME.test(name)) {
    throw new SdkError(
      "invalid_options",
      `Environment variable name ${JSON.stringify(name.slice(0, 100))} cannot be set on the remote machine: use letters, digits and "_", not starting with a digit.`,
      { name },
    );
  }
}
