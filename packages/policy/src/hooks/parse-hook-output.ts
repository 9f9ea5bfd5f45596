/**
 * Reads a hook's answer (a function's return value, a command's stdout, an
 * HTTP body) into a checked {@link HookOutput}. Keys this SDK does not know
 * are ignored (hook scripts written for other agents add their own), but a
 * known key of the wrong type or value is a failure: a hook that meant to
 * deny must not be read as "no opinion".
 */
import type { HookEventName, HookOutput, HookSpecificOutput } from "./hook-settings.js";

/** A checked answer, or why it is not one. */
export type ParsedHookOutput = { readonly output: HookOutput } | { readonly failure: string };

const PERMISSION_DECISIONS = ["allow", "deny", "ask", "defer"];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value));

function wrongType(key: string, expected: string): { failure: string } {
  return { failure: `its answer's "${key}" must be ${expected}` };
}

function checkStringKeys(value: Record<string, unknown>, keys: readonly string[], prefix: string): { failure: string } | undefined {
  for (const key of keys) {
    if (value[key] !== undefined && typeof value[key] !== "string") return wrongType(`${prefix}${key}`, "a string");
  }
  return undefined;
}

function checkSpecific(value: unknown, event: HookEventName): { failure: string } | { specific: HookSpecificOutput } {
  if (!isPlainObject(value)) return wrongType("hookSpecificOutput", "an object");
  const prefix = "hookSpecificOutput.";
  const stringProblem = checkStringKeys(value, ["permissionDecisionReason", "additionalContext", "updatedToolOutput"], prefix);
  if (stringProblem) return stringProblem;
  if (value.hookEventName !== undefined && value.hookEventName !== event) {
    return { failure: `its answer's hookSpecificOutput.hookEventName is ${JSON.stringify(value.hookEventName)}, not "${event}"` };
  }
  if (value.permissionDecision !== undefined && !PERMISSION_DECISIONS.includes(value.permissionDecision as string)) {
    return wrongType(`${prefix}permissionDecision`, '"allow", "deny", "ask" or "defer"');
  }
  if (value.updatedInput !== undefined && !isPlainObject(value.updatedInput)) return wrongType(`${prefix}updatedInput`, "an object");
  const decision = value.decision;
  if (decision !== undefined) {
    if (!isPlainObject(decision) || (decision.behavior !== "allow" && decision.behavior !== "deny")) {
      return wrongType(`${prefix}decision`, '{ behavior: "allow" | "deny", message? }');
    }
    if (decision.message !== undefined && typeof decision.message !== "string") return wrongType(`${prefix}decision.message`, "a string");
  }
  return { specific: value as HookSpecificOutput };
}

/**
 * Checks an answer given as a value (function hooks; `undefined` = no
 * opinion) for the event it ran for.
 */
export function checkHookOutput(value: unknown, event: HookEventName): ParsedHookOutput {
  if (value === undefined || value === null) return { output: {} };
  if (!isPlainObject(value)) return { failure: "its answer is not a JSON object" };
  if (value.continue !== undefined && typeof value.continue !== "boolean") return wrongType("continue", "a boolean");
  const stringProblem = checkStringKeys(value, ["stopReason", "systemMessage", "reason"], "");
  if (stringProblem) return stringProblem;
  if (value.decision !== undefined && value.decision !== "block") return wrongType("decision", '"block"');
  if (value.hookSpecificOutput === undefined) return { output: value as HookOutput };
  const specific = checkSpecific(value.hookSpecificOutput, event);
  if ("failure" in specific) return specific;
  return { output: value as HookOutput };
}

/**
 * Reads an answer given as text (a command's stdout, an HTTP body): empty
 * or blank = no opinion; else it must be one JSON object.
 */
export function parseHookOutputText(text: string, event: HookEventName): ParsedHookOutput {
  if (text.trim() === "") return { output: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { failure: `its answer is not JSON: ${JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}...` : text)}` };
  }
  return checkHookOutput(value, event);
}
