import { applyEvidenceContract } from "../domain/evidence.js";
import { type MemoryToolErrorJson, bodyTooLarge, dailyNotWritable, notFound, riskHardBlocked } from "../domain/memory-errors.js";
import type { MemoryDocument } from "../domain/memory-markdown.js";
import {
  MEMORY_LIMITS,
  MEMORY_TYPES,
  type MemoryActor,
  type MemoryConfidence,
  type MemoryKey,
  type MemoryLinks,
  type MemorySource,
  type MemoryType,
} from "../domain/memory-types.js";
import { screenMemoryContent } from "../domain/risk-filter.js";
import { isDailySlug } from "../domain/slug.js";
import { type CurrentEntry, type EntryChange, keyText, nextUpdatedAt } from "./memory-entry-io.js";

/** Evidence and links a write or update may carry. */
export interface MemoryEvidenceInput {
  readonly confidence?: MemoryConfidence;
  readonly sourceQuote?: string;
  readonly reasoning?: string;
  readonly aliases?: readonly string[];
  readonly supersedes?: string;
  readonly conflictsWith?: readonly string[];
  /** Why the writer overrides a rejection (kept in the audit detail). */
  readonly overrideReject?: string;
}

/** Who makes a change, and for which conversation. */
export interface MemoryChangeOptions {
  readonly actor?: MemoryActor;
  readonly conversationId?: string;
}

/** What a successful change reports besides the record. */
export interface MemoryChangeNotes {
  readonly autoDowngraded?: boolean;
  readonly riskFlags?: readonly string[];
  readonly warning?: string;
}

/** A planned change, or the refusal the model gets. */
export type PlannedChange =
  | { readonly ok: true; readonly change: EntryChange; readonly notes: MemoryChangeNotes }
  | { readonly ok: false; readonly error: MemoryToolErrorJson };

/** How an update combines the new body with the old one. */
export type MemoryUpdateMode = "replace" | "append" | "merge";

function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

function screen(text: string): { ok: true; flags: readonly string[] } | { ok: false; error: MemoryToolErrorJson } {
  const verdict = screenMemoryContent(text);
  if (verdict.verdict === "hard_block") return { ok: false, error: riskHardBlocked(verdict.reasons) };
  return { ok: true, flags: verdict.verdict === "soft" ? verdict.flags : [] };
}

function sourceOf(evidence: MemoryEvidenceInput, options: MemoryChangeOptions, previous?: MemorySource): { source: MemorySource; autoDowngraded: boolean } {
  if (evidence.confidence === undefined && evidence.sourceQuote === undefined && previous !== undefined) {
    return { source: { ...previous, ...(evidence.reasoning === undefined ? {} : { reasoning: evidence.reasoning }) }, autoDowngraded: false };
  }
  const { confidence, autoDowngraded } = applyEvidenceContract(evidence);
  const source: MemorySource = {
    confidence,
    ...(evidence.sourceQuote === undefined ? {} : { sourceQuote: evidence.sourceQuote }),
    ...(evidence.reasoning === undefined ? {} : { reasoning: evidence.reasoning }),
    ...(autoDowngraded ? { autoDowngraded } : {}),
    ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
  };
  return { source, autoDowngraded };
}

function linksOf(evidence: MemoryEvidenceInput, previous?: MemoryLinks): MemoryLinks {
  const links: MemoryLinks = {
    ...previous,
    ...(evidence.aliases === undefined ? {} : { aliases: [...evidence.aliases] }),
    ...(evidence.supersedes === undefined ? {} : { supersedes: evidence.supersedes }),
    ...(evidence.conflictsWith === undefined ? {} : { conflictsWith: [...evidence.conflictsWith] }),
  };
  return links;
}

function audit(key: MemoryKey, op: EntryChange["audit"]["op"], actor: MemoryActor, now: number, detail?: Record<string, unknown>): EntryChange["audit"] {
  return { at: now, op, actor, scope: key.scope, workdirHash: key.workdirHash, slug: key.slug, ...(detail === undefined ? {} : { detail }) };
}

/** Input of a write: a new entry, or an overwrite of an existing one. */
export interface MemoryWriteFields extends MemoryEvidenceInput {
  readonly type: string;
  readonly description: string;
  readonly body: string;
}

/** Plans a write (the quota is checked by the caller, which knows the count). */
export function planWrite(current: CurrentEntry, input: MemoryWriteFields, options: MemoryChangeOptions, now: number): PlannedChange {
  // `daily-YYYY-MM-DD` names a journal: only appends make those.
  if (input.type === "daily" || isDailySlug(current.key.slug)) return { ok: false, error: dailyNotWritable() };
  if (!(MEMORY_TYPES as readonly string[]).includes(input.type)) {
    return { ok: false, error: { error: "invalid_type", message: `Unknown type ${JSON.stringify(input.type)}: use one of ${MEMORY_TYPES.join(", ")}.` } };
  }
  if (current.file?.document.type === "daily") return { ok: false, error: dailyNotWritable() };
  const size = byteLength(input.body);
  if (size > MEMORY_LIMITS.bodyBytes) return { ok: false, error: bodyTooLarge(MEMORY_LIMITS.bodyBytes, size) };
  const screened = screen(`${input.description}\n${input.body}`);
  if (!screened.ok) return screened;
  const actor = options.actor ?? "tool";
  const { source, autoDowngraded } = sourceOf(input, options);
  const previous = current.file?.document;
  const document: MemoryDocument = {
    type: input.type as MemoryType,
    description: input.description,
    body: input.body,
    unreviewed: actor === "extractor" || screened.flags.length > 0,
    riskFlags: screened.flags,
    source,
    links: linksOf(input),
    appendCount: 0,
    createdAt: previous?.createdAt ?? now,
    updatedAt: nextUpdatedAt(now, current),
  };
  const overwrite = previous !== undefined;
  return {
    ok: true,
    change: {
      kind: "upsert",
      key: current.key,
      document,
      audit: audit(current.key, "write", actor, now, {
        overwrite,
        ...(input.overrideReject === undefined ? {} : { overrideReject: input.overrideReject }),
      }),
    },
    notes: { autoDowngraded, riskFlags: screened.flags },
  };
}

/** Input of an update of an existing entry. */
export interface MemoryUpdateFields extends MemoryEvidenceInput {
  readonly mode: MemoryUpdateMode;
  readonly body?: string;
  readonly description?: string;
  readonly type?: string;
}

/**
 * Lines of `addition` the body does not hold yet, appended: the merge of an
 * update, so restating known facts adds nothing.
 */
export function mergeBodies(body: string, addition: string): string {
  const known = new Set(body.split("\n").map((line) => line.trim()));
  const fresh = addition.split("\n").filter((line) => line.trim() === "" || !known.has(line.trim()));
  const text = fresh.join("\n").trim();
  return text === "" ? body : appendBodies(body, text);
}

/** `addition` after `body`, on its own line. */
export function appendBodies(body: string, addition: string): string {
  if (body === "") return addition;
  return body.endsWith("\n") ? `${body}${addition}` : `${body}\n${addition}`;
}

/** Plans an update: the entry must exist; the body is replaced, appended to or merged into. */
export function planUpdate(current: CurrentEntry, input: MemoryUpdateFields, options: MemoryChangeOptions, now: number): PlannedChange {
  const previous = current.file?.document;
  if (previous === undefined) return { ok: false, error: notFound(keyText(current.key)) };
  if (previous.type === "daily" || input.type === "daily") return { ok: false, error: dailyNotWritable() };
  if (input.type !== undefined && !(MEMORY_TYPES as readonly string[]).includes(input.type)) {
    return { ok: false, error: { error: "invalid_type", message: `Unknown type ${JSON.stringify(input.type)}: use one of ${MEMORY_TYPES.join(", ")}.` } };
  }
  const addition = input.body ?? "";
  const body =
    input.body === undefined
      ? previous.body
      : input.mode === "replace"
        ? addition
        : input.mode === "append"
          ? appendBodies(previous.body, addition)
          : mergeBodies(previous.body, addition);
  const size = byteLength(body);
  if (size > MEMORY_LIMITS.bodyBytes) return { ok: false, error: bodyTooLarge(MEMORY_LIMITS.bodyBytes, size) };
  const description = input.description ?? previous.description;
  const screened = screen(`${description}\n${body}`);
  if (!screened.ok) return screened;
  const actor = options.actor ?? "tool";
  const { source, autoDowngraded } = sourceOf(input, options, previous.source);
  const riskFlags = [...new Set([...previous.riskFlags, ...screened.flags])];
  const document: MemoryDocument = {
    ...previous,
    type: (input.type as MemoryType | undefined) ?? previous.type,
    description,
    body,
    unreviewed: previous.unreviewed || actor === "extractor" || screened.flags.length > 0,
    riskFlags,
    source,
    links: linksOf(input, previous.links),
    updatedAt: nextUpdatedAt(now, current),
  };
  return {
    ok: true,
    change: { kind: "upsert", key: current.key, document, audit: audit(current.key, "update", actor, now, { mode: input.mode }) },
    notes: { autoDowngraded, riskFlags: screened.flags },
  };
}

/** Plans a delete; a delete asked for through the tool is audited as the user's. */
export function planDelete(current: CurrentEntry, options: MemoryChangeOptions, now: number): PlannedChange {
  if (current.file === undefined && current.record === undefined) return { ok: false, error: notFound(keyText(current.key)) };
  const actor = options.actor === undefined || options.actor === "tool" ? "user" : options.actor;
  return { ok: true, change: { kind: "delete", key: current.key, audit: audit(current.key, "delete", actor, now) }, notes: {} };
}

/** Plans an accept: an unreviewed entry becomes reviewed. */
export function planAccept(current: CurrentEntry, options: MemoryChangeOptions, now: number): PlannedChange {
  const previous = current.file?.document;
  if (previous === undefined) return { ok: false, error: notFound(keyText(current.key)) };
  const actor = options.actor === undefined || options.actor === "tool" ? "user" : options.actor;
  const document: MemoryDocument = { ...previous, unreviewed: false, updatedAt: nextUpdatedAt(now, current) };
  return {
    ok: true,
    change: { kind: "upsert", key: current.key, document, audit: audit(current.key, "accept", actor, now, { wasUnreviewed: previous.unreviewed }) },
    notes: {},
  };
}

/** Plans an append to the daily journal of `dateLocal` (created on the first append). */
export function planAppendDaily(current: CurrentEntry, text: string, dateLocal: string, options: MemoryChangeOptions, now: number): PlannedChange {
  const entry = text.trim();
  if (entry === "") return { ok: false, error: { error: "empty_daily_body", message: "Nothing to append: the text is empty." } };
  const previous = current.file?.document;
  const stamp = new Date(now).toISOString().slice(11, 16);
  const body = appendBodies(previous?.body ?? "", `- ${stamp} ${entry}\n`);
  const size = byteLength(body);
  if (size > MEMORY_LIMITS.dailyBodyBytes) return { ok: false, error: bodyTooLarge(MEMORY_LIMITS.dailyBodyBytes, size) };
  const screened = screen(entry);
  if (!screened.ok) return screened;
  const actor = options.actor ?? "tool";
  const document: MemoryDocument = {
    type: "daily",
    description: previous?.description ?? `Journal of ${dateLocal}`,
    body,
    dateLocal,
    unreviewed: previous?.unreviewed ?? false,
    riskFlags: [...new Set([...(previous?.riskFlags ?? []), ...screened.flags])],
    source: previous?.source ?? { confidence: "low" },
    links: previous?.links ?? {},
    appendCount: (previous?.appendCount ?? 0) + 1,
    createdAt: previous?.createdAt ?? now,
    updatedAt: nextUpdatedAt(now, current),
  };
  const warning =
    size > MEMORY_LIMITS.dailyWarningBytes
      ? `The journal of ${dateLocal} holds ${size} of ${MEMORY_LIMITS.dailyBodyBytes} bytes; appends past the limit will be refused.`
      : undefined;
  return {
    ok: true,
    change: { kind: "upsert", key: current.key, document, audit: audit(current.key, "update", actor, now, { mode: "append", daily: true }) },
    notes: { riskFlags: screened.flags, ...(warning === undefined ? {} : { warning }) },
  };
}
