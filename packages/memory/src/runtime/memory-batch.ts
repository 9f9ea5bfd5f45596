import { ToolError } from "@agent-tools/core";
import { dailyDateFromSlug, dailyDateLocal } from "../domain/daily-dates.js";
import { type MemoryToolErrorJson, conflict, quotaExceeded } from "../domain/memory-errors.js";
import type { MemoryKey, MemoryType } from "../domain/memory-types.js";
import { checkSlug, dailySlug } from "../domain/slug.js";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import { type CurrentEntry, type EntryChange, commitEntryChanges, keyText, readCurrentEntry, withEntryLocks, withQuotaLocks } from "./memory-entry-io.js";
import { type MemoryLayout, ensureProjectDirectory } from "./memory-layout.js";
import { type MemoryEvidenceInput, type PlannedChange, planAccept, planAppendDaily, planDelete, planUpdate, planWrite } from "./memory-mutations.js";

/** One validated item of an extractor's plan. */
export interface MemoryBatchItem extends MemoryEvidenceInput {
  /** Position of the item in the submitted plan; results carry it (default: the position in `items`). */
  readonly index?: number;
  readonly action: "write" | "update" | "accept" | "delete" | "append_daily";
  readonly slug?: string;
  readonly scope?: "global" | "project";
  readonly type?: MemoryType;
  readonly description?: string;
  readonly body?: string;
  /** Update mode; default `merge`. */
  readonly mode?: "merge" | "replace" | "append";
}

/** Per-item outcome of a batch. */
export interface MemoryBatchItemResult {
  readonly index: number;
  readonly ok: boolean;
  readonly error?: MemoryToolErrorJson;
}

/** Outcome of a batch: how many items were applied, and each item's result. */
export interface MemoryBatchResult {
  readonly applied: number;
  readonly results: readonly MemoryBatchItemResult[];
}

/** What a batch needs from the service. */
export interface MemoryBatchContext {
  readonly layout: MemoryLayout;
  readonly store: MemoryIndexStore;
  readonly now: () => number;
  readonly timeZone?: string;
  readonly workdir: string;
  readonly workdirHash: string;
  readonly entriesPerScope: number;
}

type Resolved = { position: number; index: number; item: MemoryBatchItem; key: MemoryKey; dateLocal?: string };

function resolveKey(
  context: MemoryBatchContext,
  item: MemoryBatchItem,
  now: number,
): { ok: true; key: MemoryKey; dateLocal?: string } | { ok: false; error: MemoryToolErrorJson } {
  if (item.action === "append_daily") {
    const dateLocal = (item.slug === undefined ? undefined : dailyDateFromSlug(item.slug)) ?? dailyDateLocal(new Date(now), context.timeZone);
    return { ok: true, key: { scope: "global", workdirHash: "", slug: dailySlug(dateLocal) }, dateLocal };
  }
  const scope = item.scope ?? "global";
  const checked = checkSlug(item.slug ?? "");
  if (!checked.ok) return checked;
  return { ok: true, key: { scope, workdirHash: scope === "project" ? context.workdirHash : "", slug: checked.slug } };
}

function plan(resolved: Resolved, current: CurrentEntry, options: { actor: "extractor"; conversationId?: string }, now: number): PlannedChange {
  const { item } = resolved;
  switch (item.action) {
    case "write":
      return planWrite(current, { ...item, type: item.type ?? "", description: item.description ?? "", body: item.body ?? "" }, options, now);
    case "update":
      return planUpdate(current, { ...item, mode: item.mode ?? "merge" }, options, now);
    case "delete":
      return planDelete(current, options, now);
    case "accept":
      return planAccept(current, options, now);
    case "append_daily":
      return planAppendDaily(current, item.body ?? "", resolved.dateLocal!, options, now);
  }
}

const keyId = (key: MemoryKey) => `${key.scope}\u0000${key.workdirHash}\u0000${key.slug}`;

/**
 * Applies an extractor's plan: resolves and checks every item first (each
 * may be refused on its own: slug, quota, risk, size, not found), then
 * writes the files of the accepted ones and applies one index batch. The
 * batch is all or nothing: when the index refuses or fails it, every file is
 * put back and every accepted item reports the failure.
 */
export async function applyMemoryBatch(
  context: MemoryBatchContext,
  items: readonly MemoryBatchItem[],
  options: { actor: "extractor"; conversationId?: string },
): Promise<MemoryBatchResult> {
  const now = context.now();
  const results: MemoryBatchItemResult[] = items.map((item, position) => ({ index: item.index ?? position, ok: false }));
  const resolved: Resolved[] = [];
  const seen = new Set<string>();
  items.forEach((item, position) => {
    const index = item.index ?? position;
    const key = resolveKey(context, item, now);
    if (!key.ok) {
      results[position] = { index, ok: false, error: key.error };
      return;
    }
    if (seen.has(keyId(key.key))) {
      results[position] = { index, ok: false, error: { error: "duplicate_slug_in_plan", message: `${keyText(key.key)} appears twice in one plan.` } };
      return;
    }
    seen.add(keyId(key.key));
    resolved.push({ position, index, item, key: key.key, ...(key.dateLocal === undefined ? {} : { dateLocal: key.dateLocal }) });
  });
  if (resolved.length === 0) return { applied: 0, results };
  if (resolved.some((entry) => entry.key.scope === "project")) await ensureProjectDirectory(context.layout, context.workdirHash, context.workdir, now);
  // Writes may create entries: their scopes' quota locks cover the counts and the commit (after the entry locks, as every writer takes them).
  const quotaKeys = resolved.filter((entry) => entry.item.action === "write").map((entry) => entry.key);
  return withEntryLocks(
    context.layout,
    resolved.map((entry) => entry.key),
    () =>
      withQuotaLocks(context.layout, quotaKeys, async () => {
        const accepted: { position: number; index: number; change: EntryChange; current: CurrentEntry }[] = [];
        const newPerScope = new Map<string, number>();
        for (const entry of resolved) {
          const current = await readCurrentEntry(context.layout, context.store, entry.key);
          if (entry.item.action === "write" && current.file === undefined) {
            const scopeId = `${entry.key.scope}\u0000${entry.key.workdirHash}`;
            const pending = newPerScope.get(scopeId) ?? 0;
            const count = (await context.store.countEntries(entry.key)) + pending;
            if (count >= context.entriesPerScope) {
              results[entry.position] = { index: entry.index, ok: false, error: quotaExceeded(entry.key.scope, count, context.entriesPerScope) };
              continue;
            }
            newPerScope.set(scopeId, pending + 1);
          }
          const planned = plan(entry, current, options, now);
          if (!planned.ok) {
            results[entry.position] = { index: entry.index, ok: false, error: planned.error };
            continue;
          }
          const audit = { ...planned.change.audit, detail: { ...planned.change.audit.detail, batch: true } };
          accepted.push({ position: entry.position, index: entry.index, change: { ...planned.change, audit }, current });
        }
        if (accepted.length === 0) return { applied: 0, results };
        let failure: MemoryToolErrorJson | undefined;
        try {
          const committed = await commitEntryChanges(context.layout, context.store, accepted);
          if (!committed.ok) failure = conflict(committed.conflicts.map((entry) => keyText(entry.key)).join(", "));
        } catch (error) {
          failure = { error: "io", message: error instanceof ToolError ? error.message : String(error) };
        }
        for (const entry of accepted)
          results[entry.position] = failure === undefined ? { index: entry.index, ok: true } : { index: entry.index, ok: false, error: failure };
        return { applied: failure === undefined ? accepted.length : 0, results };
      }),
  );
}
