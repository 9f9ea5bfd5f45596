/**
 * Caps on what a child reports: its summary (the final assistant text) and
 * its worktree diff.
 */
import { SUBAGENT_LIMITS } from "./subagent-types.js";

/** The summary of a child that ended without any text. */
export const EMPTY_SUBAGENT_REPORT = "(subagent returned an empty report)";

/**
 * A child's summary: the text cut at 8000 characters with
 * `…\n... [truncated, total chars=N]`, or {@link EMPTY_SUBAGENT_REPORT} when
 * blank.
 *
 * @example
 * truncateSummary(""); // "(subagent returned an empty report)"
 */
export function truncateSummary(text: string): string {
  if (text.trim() === "") return EMPTY_SUBAGENT_REPORT;
  const limit = SUBAGENT_LIMITS.summaryChars;
  return text.length <= limit ? text : `${text.slice(0, limit)}…\n... [truncated, total chars=${text.length}]`;
}

/**
 * A diff cut at `max` characters (default 20 000), with a note of its full
 * length when cut.
 */
export function truncateDiff(diff: string, max: number = SUBAGENT_LIMITS.diffChars): { diff: string; diffTruncated: boolean } {
  if (diff.length <= max) return { diff, diffTruncated: false };
  return { diff: `${diff.slice(0, Math.max(0, max))}\n... [diff truncated, total chars=${diff.length}]`, diffTruncated: true };
}
