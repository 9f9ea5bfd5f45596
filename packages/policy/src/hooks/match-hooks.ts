/**
 * Which hooks of an event apply: matchers are plain names (no regular
 * expressions), `a|b` alternatives, `*` as a wildcard inside a name, and `*`,
 * `""` or no matcher for everything. Names are compared exactly (tool names
 * are canonical by the time hooks run).
 */
import type { HookEventName, HookHandler, HookSettings } from "./hook-settings.js";

/** A hook selected for a run, with the name answers give it. */
export interface SelectedHook {
  readonly handler: HookHandler;
  /** `name`, else `<kind>#<index>` where index counts the event's handlers in declaration order from 0. */
  readonly name: string;
}

function matchesAlternative(pattern: string, value: string): boolean {
  if (!pattern.includes("*")) return pattern === value;
  const parts = pattern.split("*");
  const first = parts[0] ?? "";
  const last = parts[parts.length - 1] ?? "";
  if (!value.startsWith(first) || value.length < first.length + last.length || !value.endsWith(last)) return false;
  let position = first.length;
  const end = value.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = value.indexOf(middle, position);
    if (found === -1 || found + middle.length > end) return false;
    position = found + middle.length;
  }
  return true;
}

/** True when `matcher` selects `value` (an absent value is selected only by a match-everything matcher). */
export function matchesHookMatcher(matcher: string | undefined, value: string | undefined): boolean {
  const trimmed = matcher?.trim() ?? "";
  if (trimmed === "" || trimmed === "*") return true;
  if (value === undefined) return false;
  return trimmed.split("|").some((alternative) => matchesAlternative(alternative.trim(), value));
}

/** The hooks of `event` whose matcher selects `value`, in declaration order. */
export function selectHooks(settings: HookSettings, event: HookEventName, value: string | undefined): SelectedHook[] {
  const selected: SelectedHook[] = [];
  let index = 0;
  for (const matcher of settings[event] ?? []) {
    for (const handler of matcher.hooks) {
      if (matchesHookMatcher(matcher.matcher, value)) selected.push({ handler, name: handler.name ?? `${handler.type}#${index}` });
      index += 1;
    }
  }
  return selected;
}

/** The names in a matcher that are exact tool names (no `*`), for checking them against the registry's tools. */
export function exactMatcherNames(matcher: string | undefined): string[] {
  const trimmed = matcher?.trim() ?? "";
  if (trimmed === "" || trimmed === "*") return [];
  return trimmed
    .split("|")
    .map((alternative) => alternative.trim())
    .filter((alternative) => !alternative.includes("*"));
}
