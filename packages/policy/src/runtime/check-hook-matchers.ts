/**
 * Checks the tool names in the matchers of tool events against the
 * registry's tools when its policy is built: a misspelt or wrongly cased name
 * (`bash`, `Bsh`) would silently never run its hook, so it is an `SdkError`
 * naming the closest tool. A name of an MCP server still to load (covered by
 * a tool-name prefix) is accepted and checked when its tools arrive.
 */
import { SdkError } from "@agent-tools/core";
import type { ApprovalVocabulary } from "@agent-tools/core/internal";
import { closestName } from "@agent-tools/core/internal";
import { type HookEventName, type HookSettings, TOOL_HOOK_EVENTS } from "../hooks/hook-settings.js";
import { exactMatcherNames } from "../hooks/match-hooks.js";

/** A matcher name accepted only by a tool-name prefix. */
export interface DeferredMatcherName {
  readonly name: string;
  readonly prefix: string;
  /** Where it was given, e.g. `hooks.PreToolUse[0].matcher`. */
  readonly where: string;
}

/** Throws for a matcher name that names no tool; returns the names left for later. */
export function checkHookMatchers(settings: HookSettings, vocabulary: ApprovalVocabulary): DeferredMatcherName[] {
  const deferred: DeferredMatcherName[] = [];
  for (const [event, matchers] of Object.entries(settings) as [HookEventName, NonNullable<HookSettings[HookEventName]>][]) {
    if (!TOOL_HOOK_EVENTS.has(event)) continue;
    for (const [index, matcher] of matchers.entries()) {
      const where = `hooks.${event}[${index}].matcher`;
      for (const name of exactMatcherNames(matcher.matcher)) {
        if (vocabulary.toolNames.has(name) || vocabulary.knownKeys.has(name)) continue;
        const prefix = vocabulary.toolNamePrefixes.find((candidate) => name.startsWith(candidate) && name.length > candidate.length);
        if (prefix !== undefined) {
          deferred.push({ name, prefix, where });
          continue;
        }
        const suggestion = closestName(name, vocabulary.toolNames);
        throw new SdkError(
          "invalid_options",
          `${where}: "${name}" names no tool of this registry${suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`}; tool names are exact and case-sensitive, and a hook whose matcher names nothing would never run.`,
          { option: where, name, ...(suggestion === undefined ? {} : { suggestion }) },
        );
      }
    }
  }
  return deferred;
}

/**
 * Reports (once each, through `warn`) the deferred matcher names whose
 * server's tools arrived in `names` without them.
 */
export function checkLateMatcherNames(
  deferred: readonly DeferredMatcherName[],
  names: readonly string[],
  report: { readonly reported: Set<string>; warn(message: string, data: Record<string, unknown>): void },
): void {
  for (const entry of deferred) {
    const key = `${entry.where}:${entry.name}`;
    if (report.reported.has(key)) continue;
    const arrived = names.filter((name) => name.startsWith(entry.prefix));
    if (arrived.length === 0 || arrived.includes(entry.name)) continue;
    report.reported.add(key);
    const suggestion = closestName(entry.name, arrived);
    report.warn(
      `The hook matcher name "${entry.name}" (${entry.where}) names no tool of the server that loaded (tools starting with "${entry.prefix}")${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`} Its hooks never run for it.`,
      { option: entry.where, name: entry.name, prefix: entry.prefix, ...(suggestion === undefined ? {} : { suggestion }) },
    );
  }
}
