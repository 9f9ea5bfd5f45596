import type { MemoryConfidence, MemoryLinks, MemoryRecord, MemorySource, StoredMemoryType } from "./memory-types.js";
import { MEMORY_LIMITS } from "./memory-types.js";

/**
 * The Markdown file of one entry: a frontmatter block between `---` lines
 * holding one `key: value` per line (values JSON-encoded, so any character
 * survives), then the body verbatim.
 *
 * ```
 * ---
 * type: "user"
 * description: "Prefers dark mode"
 * confidence: "high"
 * created_at: "2026-01-02T03:04:05.006Z"
 * ---
 * The body.
 * ```
 */

/**
 * An entry as its Markdown file holds it: the record's values without the
 * key (the file name gives scope and slug) and without what the index
 * derives from the file (hash, mtime, size, archived).
 */
export type MemoryDocument = Pick<
  MemoryRecord,
  "type" | "description" | "body" | "dateLocal" | "unreviewed" | "riskFlags" | "source" | "links" | "appendCount" | "createdAt" | "updatedAt"
>;

const STORED_TYPES: readonly string[] = ["user", "feedback", "project", "reference", "daily"];
const CONFIDENCES: readonly string[] = ["high", "medium", "low"];

/**
 * Renders an entry as its Markdown file. {@link parseMemoryMarkdown} gives the
 * same document back.
 *
 * @example
 * renderMemoryMarkdown({ type: "user", description: "Name", body: "Ada\n", unreviewed: false, riskFlags: [],
 *   source: { confidence: "high", sourceQuote: "I am Ada" }, links: {}, appendCount: 0, createdAt: 0, updatedAt: 0 });
 */
export function renderMemoryMarkdown(doc: MemoryDocument): string {
  const fields: [string, unknown][] = [
    ["type", doc.type],
    ["description", doc.description],
    ["date_local", doc.dateLocal],
    ["unreviewed", doc.unreviewed],
    ["risk_flags", doc.riskFlags],
    ["confidence", doc.source.confidence],
    ["source_quote", doc.source.sourceQuote],
    ["reasoning", doc.source.reasoning],
    ["auto_downgraded", doc.source.autoDowngraded],
    ["conversation_id", doc.source.conversationId],
    ["aliases", doc.links.aliases],
    ["supersedes", doc.links.supersedes],
    ["conflicts_with", doc.links.conflictsWith],
    ["append_count", doc.appendCount],
    ["created_at", renderTime(doc.createdAt)],
    ["updated_at", renderTime(doc.updatedAt)],
  ];
  const lines = fields.filter(([, value]) => value !== undefined).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join("\n")}\n---\n${doc.body}`;
}

/** Whole epoch milliseconds as ISO text (readable in the file); anything else as a number. */
function renderTime(epochMs: number): string | number {
  return Number.isSafeInteger(epochMs) && Math.abs(epochMs) <= 8.64e15 ? new Date(epochMs).toISOString() : epochMs;
}

/**
 * Parses an entry's Markdown file, leniently: a hand-written file with no or
 * partial frontmatter still gives a document. Missing fields come from
 * `fallback` (type; times from the file's mtime), the description from the
 * body's first non-empty line (heading marks dropped, cut to 120
 * characters), confidence `low`. Unknown keys and unreadable values are
 * ignored; an unquoted value is read as plain text.
 */
export function parseMemoryMarkdown(text: string, fallback: { type: StoredMemoryType; slug: string; mtimeMs: number }): MemoryDocument {
  const { fields, body } = splitFrontmatter(text.startsWith("\uFEFF") ? text.slice(1) : text);
  const type = stringField(fields, "type");
  const confidence = stringField(fields, "confidence");
  const source: MemorySource = dropUndefined({
    confidence: confidence !== undefined && CONFIDENCES.includes(confidence) ? (confidence as MemoryConfidence) : "low",
    sourceQuote: stringField(fields, "source_quote"),
    reasoning: stringField(fields, "reasoning"),
    autoDowngraded: booleanField(fields, "auto_downgraded"),
    conversationId: stringField(fields, "conversation_id"),
  });
  const links: MemoryLinks = dropUndefined({
    aliases: stringArrayField(fields, "aliases"),
    supersedes: stringField(fields, "supersedes"),
    conflictsWith: stringArrayField(fields, "conflicts_with"),
  });
  const createdAt = timeField(fields, "created_at") ?? fallback.mtimeMs;
  const storedType = type !== undefined && STORED_TYPES.includes(type) ? (type as StoredMemoryType) : fallback.type;
  return dropUndefined({
    type: storedType,
    description: stringField(fields, "description") ?? descriptionFromBody(body),
    body,
    dateLocal: stringField(fields, "date_local") ?? (storedType === "daily" ? dateFromDailySlug(fallback.slug) : undefined),
    unreviewed: booleanField(fields, "unreviewed") ?? false,
    riskFlags: stringArrayField(fields, "risk_flags") ?? [],
    source,
    links,
    appendCount: countField(fields, "append_count") ?? 0,
    createdAt,
    updatedAt: timeField(fields, "updated_at") ?? fallback.mtimeMs,
  });
}

/** The first non-empty line of a body, heading marks dropped, cut to the description limit. */
export function descriptionFromBody(body: string): string {
  const line = body
    .split(/\r?\n/)
    .map((entry) => entry.replace(/^\s*#+\s*/, "").trim())
    .find((entry) => entry !== "");
  return [...(line ?? "")].slice(0, MEMORY_LIMITS.descriptionMaxChars).join("");
}

function dateFromDailySlug(slug: string): string | undefined {
  return /^daily-(\d{4}-\d{2}-\d{2})$/.exec(slug)?.[1];
}

/** Splits off the frontmatter: the text opens with a `---` line and a later `---` line closes it. */
function splitFrontmatter(text: string): { fields: Map<string, unknown>; body: string } {
  const fields = new Map<string, unknown>();
  const open = /^---\r?\n/.exec(text);
  if (open === null) return { fields, body: text };
  const close = /^---[ \t]*(?:\r?\n|$)/m;
  const rest = text.slice(open[0].length);
  const match = close.exec(rest);
  if (match === null) return { fields, body: text };
  for (const line of rest.slice(0, match.index).split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    fields.set(line.slice(0, colon).trim(), readValue(line.slice(colon + 1).trim()));
  }
  return { fields, body: rest.slice(match.index + match[0].length) };
}

function readValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    // Hand-written values: unquoted text, or a `[a, b]` list.
    if (raw.startsWith("[") && raw.endsWith("]")) {
      return raw
        .slice(1, -1)
        .split(",")
        .map((entry) => entry.trim().replace(/^["']|["']$/g, ""))
        .filter((entry) => entry !== "");
    }
    return raw.replace(/^'(.*)'$/, "$1");
  }
}

function stringField(fields: Map<string, unknown>, key: string): string | undefined {
  const value = fields.get(key);
  return typeof value === "string" ? value : undefined;
}

function booleanField(fields: Map<string, unknown>, key: string): boolean | undefined {
  const value = fields.get(key);
  if (typeof value === "boolean") return value;
  if (value === "true" || value === "yes") return true;
  if (value === "false" || value === "no") return false;
  return undefined;
}

function stringArrayField(fields: Map<string, unknown>, key: string): string[] | undefined {
  const value = fields.get(key);
  if (!Array.isArray(value)) return undefined;
  return value.filter((entry): entry is string => typeof entry === "string");
}

function countField(fields: Map<string, unknown>, key: string): number | undefined {
  const value = fields.get(key);
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function timeField(fields: Map<string, unknown>, key: string): number | undefined {
  const value = fields.get(key);
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "") {
    const parsed = Date.parse(value);
    if (Number.isFinite(parsed)) return parsed;
  }
  return undefined;
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
