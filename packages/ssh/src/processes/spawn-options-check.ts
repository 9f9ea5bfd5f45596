import { SdkError, type SpawnOptions } from "@agent-tools/core";
import { checkStdinOption, closestName } from "@agent-tools/core/internal";

/** The keys of {@link SpawnOptions} the SSH runner understands. */
const SPAWN_OPTION_KEYS = ["command", "args", "shell", "cwd", "env", "extendEnv", "input", "stdin", "signal", "isolated", "logFile"] as const;

/**
 * Checks spawn options for the remote runner and fails closed: an unknown
 * key, a missing command, a relative cwd or logFile, non-string arguments
 * throw `SdkError("invalid_options")` naming the option, and so does a
 * `stdin` other than `"pipe"` or one combined with `input` or `logFile`.
 */
export function checkSpawnOptions(options: SpawnOptions): void {
  if (!options || typeof options !== "object") throw new SdkError("invalid_options", "ProcessRunner.spawn needs an options object.");
  for (const key of Object.keys(options)) {
    if ((SPAWN_OPTION_KEYS as readonly string[]).includes(key)) continue;
    const suggestion = closestName(key, SPAWN_OPTION_KEYS);
    throw new SdkError(
      "invalid_options",
      `Unknown ProcessRunner.spawn option ${JSON.stringify(key)}${suggestion ? `; did you mean ${JSON.stringify(suggestion)}?` : "."}`,
      {
        option: key,
        ...(suggestion ? { suggestion } : {}),
      },
    );
  }
  if (typeof options.command !== "string" || options.command === "") throw new SdkError("invalid_options", "ProcessRunner.spawn needs a command.");
  if (typeof options.cwd !== "string" || !options.cwd.startsWith("/")) {
    throw new SdkError("invalid_options", "ProcessRunner.spawn needs an absolute cwd (a path on the remote machine).", { cwd: options.cwd });
  }
  if (options.logFile !== undefined && (typeof options.logFile !== "string" || !options.logFile.startsWith("/"))) {
    throw new SdkError("invalid_options", "ProcessRunner.spawn: logFile must be an absolute path on the remote machine.", { logFile: options.logFile });
  }
  if (options.args !== undefined && (!Array.isArray(options.args) || options.args.some((arg) => typeof arg !== "string"))) {
    throw new SdkError("invalid_options", "ProcessRunner.spawn: args must be an array of strings.");
  }
  if (options.input !== undefined && typeof options.input !== "string") throw new SdkError("invalid_options", "ProcessRunner.spawn: input must be a string.");
  checkStdinOption(options);
}
