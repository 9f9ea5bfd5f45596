import { type MemoryToolErrorJson, slugInvalid } from "./memory-errors.js";

/** A valid slug: lower-case letters, digits and `-`, 3-64 characters, no `-` at either end. */
export const MEMORY_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/;

const SLUG_MIN_LENGTH = 3;
const SLUG_MAX_LENGTH = 64;
const DAILY_SLUG_PATTERN = /^daily-(\d{4}-\d{2}-\d{2})$/;

/** The forgiving part of the slug rule: trimmed, lower case, `_` read as `-`. */
export function normalizeSlug(raw: string): string {
  return raw.trim().toLowerCase().replaceAll("_", "-");
}

/**
 * Checks a slug after {@link normalizeSlug}. A refusal is the `slug_invalid`
 * answer, with a valid slug derived from the input as `suggestion` when
 * anything usable remains.
 *
 * @example
 * checkSlug("Dark_Mode"); // { ok: true, slug: "dark-mode" }
 * checkSlug("dark mode!"); // { ok: false, error: { error: "slug_invalid", suggestion: "dark-mode", ... } }
 */
export function checkSlug(raw: string): { ok: true; slug: string } | { ok: false; error: MemoryToolErrorJson } {
  const slug = normalizeSlug(raw);
  if (MEMORY_SLUG_PATTERN.test(slug)) return { ok: true, slug };
  return { ok: false, error: slugInvalid(raw, slugProblem(slug), suggestSlug(raw)) };
}

function slugProblem(slug: string): string {
  if (slug.length < SLUG_MIN_LENGTH) return `a slug has at least ${SLUG_MIN_LENGTH} characters`;
  if (slug.length > SLUG_MAX_LENGTH) return `a slug has at most ${SLUG_MAX_LENGTH} characters`;
  if (/[^a-z0-9-]/.test(slug)) return "a slug holds only lower-case letters a-z, digits and -";
  return "a slug starts and ends with a letter or digit";
}

/**
 * A valid slug derived from `raw` (diacritics dropped, other characters to
 * `-`, runs collapsed, trimmed, padded or cut to 3-64 characters), or
 * undefined when no letter or digit remains.
 */
export function suggestSlug(raw: string): string | undefined {
  let slug = normalizeSlug(raw)
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug === "") return undefined;
  if (slug.length > SLUG_MAX_LENGTH) slug = slug.slice(0, SLUG_MAX_LENGTH).replace(/-+$/, "");
  if (slug.length < SLUG_MIN_LENGTH) slug = `${slug}-note`;
  return MEMORY_SLUG_PATTERN.test(slug) ? slug : undefined;
}

/** The slug of the daily journal of a local date (`YYYY-MM-DD`): `daily-YYYY-MM-DD`. */
export function dailySlug(dateLocal: string): string {
  return `daily-${dateLocal}`;
}

/** True for a slug of the `daily-YYYY-MM-DD` form. */
export function isDailySlug(slug: string): boolean {
  return DAILY_SLUG_PATTERN.test(slug);
}
