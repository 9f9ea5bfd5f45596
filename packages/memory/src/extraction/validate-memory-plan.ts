import { dailyDateFromSlug } from "../domain/daily-dates.js";
import { MEMORY_LIMITS, MEMORY_TYPES, type MemoryConfidence, type MemoryScope, type MemoryType } from "../domain/memory-types.js";
import { checkSlug, isDailySlug } from "../domain/slug.js";
import { MEMORY_PLAN_ACTIONS, type MemoryPlanAction, type ValidatedPlanItem } from "./validated-plan-item.js";

/** Why a plan item was refused. */
export const MEMORY_PLAN_REJECTION_CODES = [
  "invalid-action",
  "missing-slug",
  "missing-type-for-write",
  "missing-description-for-write",
  "missing-body-for-write",
  "invalid-scope",
  "project-scope-gate",
  "rejected-slug-no-override",
  "duplicate-slug-in-plan",
  "already-written-this-turn",
  "empty-daily-body",
  "body-too-large",
] as const;
/** One reason a plan item was refused. */
export type MemoryPlanRejectionCode = (typeof MEMORY_PLAN_REJECTION_CODES)[number];

/** Most items a plan may hold. */
export const MEMORY_PLAN_MAX_ITEMS = 8;
/** Longest plan note, in characters. */
export const MEMORY_PLAN_NOTE_MAX_CHARS = 200;

/** What a plan is checked against. */
export interface MemoryPlanContext {
  /** False when there is no project (or the host does not let the extractor write there). */
  readonly projectScopeAllowed: boolean;
  /** Slugs the conversation's own tool calls wrote this turn: the extractor leaves them alone. */
  readonly writtenThisTurn: ReadonlySet<string>;
  /** Slugs the user recently rejected: writing them again needs `override_reject`. */
  readonly rejectedSlugs: ReadonlySet<string>;
}

/** One refused item. */
export interface MemoryPlanRejection {
  readonly index: number;
  readonly slug?: string;
  readonly code: MemoryPlanRejectionCode;
  readonly message: string;
}

/** Result of {@link validateMemoryPlan}. */
export interface ValidatedMemoryPlan {
  /** The plan's status; `noop` when the plan itself was unreadable. */
  readonly status: "updated" | "noop";
  readonly note?: string;
  readonly accepted: ValidatedPlanItem[];
  readonly rejected: MemoryPlanRejection[];
  /** Set when the plan as a whole was unreadable (not an object, no item list); then nothing is accepted. */
  readonly problem?: string;
}

type ItemOutcome = { ok: true; item: ValidatedPlanItem } | { ok: false; code: MemoryPlanRejectionCode; message: string; slug?: string };

const CONFIDENCES: readonly string[] = ["high", "medium", "low"];
const encoder = new TextEncoder();

/**
 * Checks a submitted memory plan item by item: a bad item is rejected with a
 * code and a message, the others go on. Accepts the plan as an object or
 * its JSON text. Items past the eighth are rejected (`invalid-action`).
 * Checks per item, first failure wins: action, scope, slug, project gate,
 * required fields of a write, daily body, body size, user rejections,
 * this turn's writes, duplicates of an earlier accepted item.
 *
 * @example
 * const { accepted, rejected } = validateMemoryPlan(args, { projectScopeAllowed: true, writtenThisTurn: new Set(), rejectedSlugs: new Set() });
 */
export function validateMemoryPlan(plan: unknown, context: MemoryPlanContext): ValidatedMemoryPlan {
  const parsed = typeof plan === "string" ? parseJson(plan) : plan;
  if (!isRecord(parsed)) return { status: "noop", accepted: [], rejected: [], problem: "The plan is not a JSON object." };
  const status: ValidatedMemoryPlan["status"] = parsed.status === "updated" ? "updated" : "noop";
  const note = optionalText(parsed.note, MEMORY_PLAN_NOTE_MAX_CHARS);
  const head: Pick<ValidatedMemoryPlan, "status" | "note"> = note === undefined ? { status } : { status, note };
  if (!Array.isArray(parsed.items)) {
    return parsed.items === undefined && status === "noop"
      ? { ...head, accepted: [], rejected: [] }
      : { ...head, accepted: [], rejected: [], problem: "The plan has no items array." };
  }
  const accepted: ValidatedPlanItem[] = [];
  const rejected: MemoryPlanRejection[] = [];
  const planned = new Set<string>();
  parsed.items.forEach((raw: unknown, index: number) => {
    const outcome =
      index >= MEMORY_PLAN_MAX_ITEMS
        ? reject("invalid-action", `A plan holds at most ${MEMORY_PLAN_MAX_ITEMS} items; this one was dropped.`)
        : validateItem(raw, index, context, planned);
    if (outcome.ok) {
      accepted.push(outcome.item);
      planned.add(planKey(outcome.item));
    } else {
      rejected.push({ index, ...(outcome.slug === undefined ? {} : { slug: outcome.slug }), code: outcome.code, message: outcome.message });
    }
  });
  return { ...head, accepted, rejected };
}

function validateItem(raw: unknown, index: number, context: MemoryPlanContext, planned: ReadonlySet<string>): ItemOutcome {
  if (!isRecord(raw)) return reject("invalid-action", "An item must be an object.");
  const action = raw.action;
  if (typeof action !== "string" || !(MEMORY_PLAN_ACTIONS as readonly string[]).includes(action)) {
    return reject("invalid-action", `Unknown action ${JSON.stringify(action)}; use one of ${MEMORY_PLAN_ACTIONS.join(", ")}.`);
  }
  const planAction = action as MemoryPlanAction;
  const rawSlug = typeof raw.slug === "string" ? raw.slug : undefined;

  const scope = raw.scope ?? "global";
  if (scope !== "global" && scope !== "project") return reject("invalid-scope", `Unknown scope ${JSON.stringify(raw.scope)}; use global or project.`, rawSlug);
  if (planAction === "append_daily" && scope !== "global")
    return reject("invalid-scope", "Daily journals are global: append_daily takes no project scope.", rawSlug);

  const slugOutcome = resolveSlug(planAction, raw.slug);
  if (!slugOutcome.ok) return slugOutcome;
  const slug = slugOutcome.slug;

  if (scope === "project" && !context.projectScopeAllowed) {
    return reject("project-scope-gate", "Project memory is not available here; use the global scope or leave the item out.", slug);
  }

  const type = raw.type;
  const description = optionalText(raw.description, Number.POSITIVE_INFINITY);
  const body = typeof raw.body === "string" ? raw.body : undefined;
  const hasBody = body !== undefined && body.trim() !== "";
  if (planAction === "write" || (planAction === "update" && type !== undefined)) {
    if (typeof type !== "string" || !(MEMORY_TYPES as readonly string[]).includes(type)) {
      const daily = type === "daily" ? " (daily journals take append_daily)" : "";
      return reject("missing-type-for-write", `A ${planAction} needs type ${MEMORY_TYPES.join(", ")}${daily}.`, slug);
    }
  }
  if (planAction === "write" || (planAction === "update" && raw.description !== undefined)) {
    if (description === undefined || [...description].length > MEMORY_LIMITS.descriptionMaxChars) {
      return reject("missing-description-for-write", `A ${planAction} needs a description of 1-${MEMORY_LIMITS.descriptionMaxChars} characters.`, slug);
    }
  }
  if (planAction === "write" && !hasBody) return reject("missing-body-for-write", "A write needs a non-empty body.", slug);
  if (planAction === "update" && !hasBody && description === undefined) {
    return reject("missing-body-for-write", "An update needs a non-empty body or a new description.", slug);
  }
  if (planAction === "append_daily" && !hasBody)
    return reject("empty-daily-body", "append_daily needs a non-empty body: the line to add to the journal.", slug);

  if (hasBody) {
    const limit = planAction === "append_daily" ? MEMORY_LIMITS.dailyBodyBytes : MEMORY_LIMITS.bodyBytes;
    const bytes = encoder.encode(body).length;
    if (bytes > limit) return reject("body-too-large", `The body is ${bytes} bytes; the limit is ${limit} bytes.`, slug);
  }

  const overrideReject = optionalText(raw.override_reject, MEMORY_LIMITS.overrideRejectMaxChars);
  if ((planAction === "write" || planAction === "update") && slug !== undefined && context.rejectedSlugs.has(slug) && overrideReject === undefined) {
    return reject(
      "rejected-slug-no-override",
      `The user recently rejected ${slug}; write it again only with override_reject saying why this is different.`,
      slug,
    );
  }
  if (planAction !== "append_daily" && slug !== undefined && context.writtenThisTurn.has(slug)) {
    return reject("already-written-this-turn", `${slug} was already written this turn; leave it as it is.`, slug);
  }

  const item = dropUndefined<ValidatedPlanItem>({
    index,
    action: planAction,
    slug,
    scope: scope as MemoryScope,
    type: typeof type === "string" ? (type as MemoryType) : undefined,
    description: description === undefined ? undefined : description,
    body: hasBody ? body : undefined,
    mode: raw.mode === "replace" ? "replace" : "merge",
    confidence: typeof raw.confidence === "string" && CONFIDENCES.includes(raw.confidence) ? (raw.confidence as MemoryConfidence) : undefined,
    sourceQuote: optionalText(raw.source_quote, MEMORY_LIMITS.sourceQuoteMaxChars),
    reasoning: optionalText(raw.reasoning, MEMORY_LIMITS.reasoningMaxChars),
    aliases: slugList(raw.aliases, MEMORY_LIMITS.aliasesMax),
    supersedes: typeof raw.supersedes === "string" ? checkSlugValue(raw.supersedes) : undefined,
    conflictsWith: slugList(raw.conflicts_with, MEMORY_LIMITS.conflictsWithMax),
    overrideReject,
  });
  if (planned.has(planKey(item))) {
    return reject("duplicate-slug-in-plan", `${slug ?? "today's journal"} already has an item earlier in this plan; combine them into one.`, slug);
  }
  return { ok: true, item };
}

function resolveSlug(action: MemoryPlanAction, raw: unknown): { ok: true; slug?: string } | (ItemOutcome & { ok: false }) {
  if (action === "append_daily") {
    if (raw === undefined || raw === null || raw === "") return { ok: true };
    if (typeof raw === "string" && dailyDateFromSlug(raw.trim().toLowerCase()) !== undefined) return { ok: true, slug: raw.trim().toLowerCase() };
    return reject("missing-slug", "append_daily takes no slug (today's journal) or a daily-YYYY-MM-DD one.", typeof raw === "string" ? raw : undefined);
  }
  if (typeof raw !== "string" || raw.trim() === "") return reject("missing-slug", `A ${action} needs a slug.`);
  const checked = checkSlug(raw);
  if (!checked.ok) return reject("missing-slug", checked.error.message, raw);
  if ((action === "write" || action === "update") && isDailySlug(checked.slug)) {
    return reject("invalid-action", "Daily journals are append-managed: use append_daily to add to one.", checked.slug);
  }
  return { ok: true, slug: checked.slug };
}

function reject(code: MemoryPlanRejectionCode, message: string, slug?: string): ItemOutcome & { ok: false } {
  return slug === undefined ? { ok: false, code, message } : { ok: false, code, message, slug };
}

function planKey(item: ValidatedPlanItem): string {
  return item.action === "append_daily" ? `daily:${item.slug ?? "today"}` : (item.slug ?? "");
}

function checkSlugValue(raw: string): string | undefined {
  const checked = checkSlug(raw);
  return checked.ok ? checked.slug : undefined;
}

function slugList(value: unknown, max: number): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const slugs: string[] = [];
  for (const entry of value) {
    const slug = typeof entry === "string" ? checkSlugValue(entry) : undefined;
    if (slug !== undefined && !slugs.includes(slug)) slugs.push(slug);
  }
  return slugs.length === 0 ? undefined : slugs.slice(0, max);
}

function optionalText(value: unknown, maxChars: number): string | undefined {
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  if (trimmed === "") return undefined;
  const chars = [...trimmed];
  return chars.length > maxChars ? chars.slice(0, maxChars).join("") : trimmed;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function dropUndefined<T extends object>(value: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
