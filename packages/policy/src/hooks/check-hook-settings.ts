/**
 * Checks the `hooks` option when a registry is built: every unknown event,
 * key or kind, a wrong type, a bad timeout, a `run` that is not a function or
 * a URL that is not http(s) is an `SdkError("invalid_options")` naming it
 * (with the closest valid name), so a hook the host meant to run can never be
 * silently dropped.
 */
import { SdkError } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";
import {
  HOOK_EVENT_NAMES,
  type HookEventName,
  type HookHandler,
  type HookKind,
  type HookMatcher,
  type HookSettings,
  MAX_HOOK_TIMEOUT_MS,
} from "./hook-settings.js";

const HANDLER_KEYS: Readonly<Record<HookKind, readonly string[]>> = {
  function: ["type", "name", "timeoutMs", "run"],
  command: ["type", "name", "command", "timeoutMs", "cwd", "env"],
  http: ["type", "name", "url", "headers", "timeoutMs"],
};
const MATCHER_KEYS = ["matcher", "hooks"];
/** Characters of a regular expression a matcher may not use (matchers are plain names with `*` and `|`). */
const REGEX_CHARACTERS = /[.^$()[\]{}+?\\]/;
/** A header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value));

function fail(where: string, message: string, details: Record<string, unknown> = {}): never {
  throw new SdkError("invalid_options", `hooks${where}: ${message}`, { option: `hooks${where}`, ...details });
}

function checkKeys(value: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const suggestion = closestName(key, allowed);
    fail(where, `unknown key "${key}"${suggestion ? ` (did you mean "${suggestion}"?)` : ""}; known keys: ${allowed.join(", ")}.`, { key, suggestion });
  }
}

function checkOptionalString(value: unknown, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") fail(where, "must be a non-empty string.");
  return value;
}

function checkTimeout(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_HOOK_TIMEOUT_MS) {
    fail(where, `must be a whole number of milliseconds from 1 to ${MAX_HOOK_TIMEOUT_MS} (10 minutes).`);
  }
  return value;
}

function checkStringRecord(value: unknown, where: string, keyPattern?: RegExp): Readonly<Record<string, string>> | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) fail(where, "must be an object of strings.");
  const copy: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== "string") fail(`${where}.${key}`, "must be a string.");
    if (keyPattern && !keyPattern.test(key)) fail(`${where}.${key}`, "is not a valid name.");
    if (/[\r\n\0]/.test(entry)) fail(`${where}.${key}`, "may not hold a line break or NUL.");
    copy[key] = entry;
  }
  return Object.freeze(copy);
}

function checkUrl(value: unknown, where: string): string {
  if (typeof value !== "string" || value === "") fail(where, "must be an http: or https: URL.");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(where, `"${value}" is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") fail(where, `"${url.protocol}" URLs are not supported; use http: or https:.`);
  return url.href;
}

function checkHandler(given: unknown, where: string): HookHandler {
  if (!isPlainObject(given)) fail(where, 'must be an object ({ type: "function" | "command" | "http", ... }).');
  const type = given.type;
  if (typeof type !== "string" || !Object.hasOwn(HANDLER_KEYS, type)) {
    const suggestion = typeof type === "string" ? closestName(type, Object.keys(HANDLER_KEYS)) : undefined;
    fail(`${where}.type`, `must be "function", "command" or "http"${suggestion ? ` (did you mean "${suggestion}"?)` : ""}.`, { suggestion });
  }
  const kind = type as HookKind;
  checkKeys(given, HANDLER_KEYS[kind], where);
  const name = checkOptionalString(given.name, `${where}.name`);
  const timeoutMs = checkTimeout(given.timeoutMs, `${where}.timeoutMs`);
  const common = { ...(name === undefined ? {} : { name }), ...(timeoutMs === undefined ? {} : { timeoutMs }) };
  if (kind === "function") {
    if (typeof given.run !== "function") fail(`${where}.run`, "must be a function (input, { signal }) => output.");
    return Object.freeze({ type: kind, ...common, run: given.run as never });
  }
  if (kind === "command") {
    if (typeof given.command !== "string" || given.command.trim() === "") fail(`${where}.command`, "must be a non-empty command line.");
    if (given.command.includes("\0")) fail(`${where}.command`, "may not hold NUL.");
    const cwd = checkOptionalString(given.cwd, `${where}.cwd`);
    const env = checkStringRecord(given.env, `${where}.env`, /^[A-Za-z_][A-Za-z0-9_]*$/);
    return Object.freeze({ type: kind, ...common, command: given.command, ...(cwd === undefined ? {} : { cwd }), ...(env === undefined ? {} : { env }) });
  }
  const url = checkUrl(given.url, `${where}.url`);
  const headers = checkStringRecord(given.headers, `${where}.headers`, HEADER_NAME);
  return Object.freeze({ type: kind, ...common, url, ...(headers === undefined ? {} : { headers }) });
}

function checkMatcherPattern(value: unknown, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") fail(where, "must be a string (a tool name, names joined by |, or * for all).");
  if (REGEX_CHARACTERS.test(value)) {
    fail(where, `"${value}" is not a regular expression: use exact names, "a|b" and * as a wildcard (e.g. "mcp_github_*").`);
  }
  if (value.split("|").some((part) => part.trim() === "") && value.trim() !== "") fail(where, `"${value}" has an empty alternative.`);
  return value;
}

function checkMatcher(given: unknown, where: string): HookMatcher {
  if (!isPlainObject(given)) fail(where, "must be an object ({ matcher?, hooks: [...] }).");
  checkKeys(given, MATCHER_KEYS, where);
  const matcher = checkMatcherPattern(given.matcher, `${where}.matcher`);
  if (!Array.isArray(given.hooks)) fail(`${where}.hooks`, "must be an array of hooks.");
  // Array.from visits holes (map skips them, leaving a hole that would break every dispatch).
  const hooks = Object.freeze(Array.from(given.hooks, (handler, index) => checkHandler(handler, `${where}.hooks[${index}]`)));
  return Object.freeze({ ...(matcher === undefined ? {} : { matcher }), hooks });
}

/**
 * Checks the `hooks` option and returns a frozen copy (later changes to the
 * host's object do not apply). Throws `SdkError("invalid_options")` naming
 * the first problem.
 *
 * @example
 * checkHookSettings({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh" }] }] });
 * checkHookSettings({ preToolUse: [] }); // SdkError: unknown event "preToolUse" (did you mean "PreToolUse"?)
 */
export function checkHookSettings(given: unknown): HookSettings {
  if (given === undefined) return Object.freeze({});
  if (!isPlainObject(given)) fail("", "must be an object of events ({ PreToolUse: [...], ... }).");
  // A symbol or non-enumerable event would be skipped by Object.entries: its hooks would never run.
  const hidden = Reflect.ownKeys(given).find((key) => typeof key === "symbol" || !Object.prototype.propertyIsEnumerable.call(given, key));
  if (hidden !== undefined) fail("", `has a key that is not an enumerable string (${String(hidden)}); its hooks would never run.`);
  const checked: Partial<Record<HookEventName, readonly HookMatcher[]>> = {};
  for (const [event, matchers] of Object.entries(given)) {
    if (!(HOOK_EVENT_NAMES as readonly string[]).includes(event)) {
      const suggestion = closestName(event, HOOK_EVENT_NAMES);
      fail(`.${event}`, `unknown event${suggestion ? ` (did you mean "${suggestion}"?)` : ""}; events: ${HOOK_EVENT_NAMES.join(", ")}.`, {
        key: event,
        suggestion,
      });
    }
    if (!Array.isArray(matchers)) fail(`.${event}`, "must be an array of matchers ({ matcher?, hooks: [...] }).");
    checked[event as HookEventName] = Object.freeze(Array.from(matchers, (matcher, index) => checkMatcher(matcher, `.${event}[${index}]`)));
  }
  return Object.freeze(checked);
}
