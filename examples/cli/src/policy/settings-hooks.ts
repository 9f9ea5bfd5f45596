/**
 * The `hooks` of a Claude Code settings file, made ready for the SDK's
 * `hooks` option. Two differences need bridging:
 * - Claude Code's JSON gives a hook's `timeout` in seconds; the SDK takes
 *   `timeoutMs`;
 * - a JSON file can only describe hooks that run outside the CLI: `command`
 *   and `http`. A `function` hook needs code; Claude Code's `prompt` and
 *   `agent` hooks have no counterpart in the SDK.
 * Everything else is copied as it is, including shapes that are wrong, so
 * that the SDK's checks report them (fail closed).
 */
import { UsageError } from "../cli-options.js";

/** The hook kinds a settings file may hold. */
export const FILE_HOOK_TYPES: readonly string[] = Object.freeze(["command", "http"]);

/**
 * Returns a copy of `hooks` with every `timeout` (seconds) turned into
 * `timeoutMs`; throws `UsageError` (naming the hook's place, e.g.
 * `hooks.PreToolUse[0].hooks[1]`) for a kind other than `command`/`http`,
 * a `timeout` that is not a positive number, or both `timeout` and `timeoutMs`.
 *
 * @example
 * convertSettingsHooks({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh", timeout: 30 }] }] });
 * // { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh", timeoutMs: 30000 }] }] }
 */
export function convertSettingsHooks(hooks: unknown): unknown {
  if (!isRecord(hooks)) return hooks;
  return Object.fromEntries(
    Object.entries(hooks).map(([event, matchers]) => [
      event,
      Array.isArray(matchers) ? matchers.map((matcher, index) => convertMatcher(matcher, `hooks.${event}[${index}]`)) : matchers,
    ]),
  );
}

function convertMatcher(matcher: unknown, place: string): unknown {
  if (!isRecord(matcher) || !Array.isArray(matcher.hooks)) return matcher;
  return { ...matcher, hooks: matcher.hooks.map((handler, index) => convertHandler(handler, `${place}.hooks[${index}]`)) };
}

function convertHandler(handler: unknown, place: string): unknown {
  if (!isRecord(handler)) return handler;
  if (typeof handler.type === "string" && !FILE_HOOK_TYPES.includes(handler.type)) {
    throw new UsageError(
      `${place} has type ${JSON.stringify(handler.type)}; a settings file can give only "command" and "http" hooks (a "function" hook is code a host passes to buildBuiltinToolRegistry).`,
    );
  }
  if (!("timeout" in handler)) return handler;
  const { timeout, ...rest } = handler;
  if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0) {
    throw new UsageError(`${place}.timeout must be a positive number of seconds, not ${JSON.stringify(timeout)}.`);
  }
  if ("timeoutMs" in handler) throw new UsageError(`${place} gives both timeout (seconds) and timeoutMs: keep one.`);
  return { ...rest, timeoutMs: Math.round(timeout * 1000) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
