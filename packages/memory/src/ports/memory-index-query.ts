/**
 * Rules every {@link MemoryIndexStore} applies the same way: which types a
 * list or search covers, how a search term is read, the list order and the
 * daily-row invariant. Shared by the in-memory and the database stores.
 */
import { SdkError } from "@agent-tools/core";
import { MEMORY_TYPES, type MemoryKey, type MemoryRecord, type StoredMemoryType } from "../domain/memory-types.js";
import type { MemoryListQuery, MemoryTextQuery } from "./memory-index-store.js";
import { foldText, tokenizeWords } from "./plain-bm25.js";

/** One search term as the indexes use it. */
export interface ParsedSearchTerm {
  /** Folded word tokens; one is a word, several a phrase. */
  readonly words: readonly string[];
  /** Folded text with quotes removed and blanks collapsed (what the trigram index looks for). */
  readonly text: string;
}

/**
 * Reads query terms: surrounding double quotes are dropped, the rest is
 * folded ({@link foldText}). Terms that fold to nothing are left out.
 *
 * @example
 * parseSearchTerms(['"Dark Mode"', "café"]); // [{ words: ["dark", "mode"], text: "dark mode" }, { words: ["cafe"], text: "cafe" }]
 */
export function parseSearchTerms(terms: readonly string[]): ParsedSearchTerm[] {
  const parsed: ParsedSearchTerm[] = [];
  for (const term of terms) {
    const inner = term.trim().replace(/^"(.*)"$/su, "$1");
    const text = foldText(inner).replace(/\s+/gu, " ").trim();
    if (text === "") continue;
    parsed.push({ words: tokenizeWords(inner), text });
  }
  return parsed;
}

/** Length in code points (a CJK character counts once). */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}

/**
 * Types a list covers: `types` when given, else every written type; plus
 * `daily` when `includeDaily`.
 */
export function listTypes(query: Pick<MemoryListQuery, "types" | "includeDaily">): StoredMemoryType[] {
  const types = new Set<StoredMemoryType>(query.types ?? MEMORY_TYPES);
  if (query.includeDaily === true) types.add("daily");
  return [...types];
}

/** Types a search covers: `types` when given, else every type including `daily`. */
export function searchTypes(query: Pick<MemoryTextQuery, "types">): StoredMemoryType[] {
  return [...(query.types ?? [...MEMORY_TYPES, "daily"])];
}

/** One string per key, for maps. */
export function memoryKeyId(key: MemoryKey): string {
  return `${key.scope}\u0000${key.workdirHash}\u0000${key.slug}`;
}

/** List order: `updatedAt` descending, then scope, workdirHash and slug ascending. */
export function compareForList(left: MemoryRecord, right: MemoryRecord): number {
  if (left.updatedAt !== right.updatedAt) return right.updatedAt - left.updatedAt;
  return compareText(left.scope, right.scope) || compareText(left.workdirHash, right.workdirHash) || compareText(left.slug, right.slug);
}

/** Code-unit order, as the databases compare with a binary collation. */
export function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * Throws `SdkError("invalid_options")` for a record no store may hold: a
 * daily row outside the global scope or without `dateLocal`, a global row
 * with a workdir hash, a project row without one.
 */
export function assertStorableRecord(record: MemoryRecord): void {
  if (record.type === "daily" && (record.scope !== "global" || !record.dateLocal)) {
    throw new SdkError("invalid_options", `Daily memory '${record.slug}' must be global and have a dateLocal.`, { slug: record.slug });
  }
  if ((record.scope === "global") !== (record.workdirHash === "")) {
    throw new SdkError("invalid_options", `Memory '${record.slug}': a global record has an empty workdirHash and a project record a non-empty one.`, {
      slug: record.slug,
      scope: record.scope,
    });
  }
}
