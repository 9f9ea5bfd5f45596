/**
 * @agent-tools/memory: long-term memory for agents. MemoryManager over
 * Markdown files (the truth) with a derived full-text index on SQLite,
 * PostgreSQL or memory, and silent extraction plans.
 *
 * @packageDocumentation
 */
export { MEMORY_TYPES, MEMORY_LIMITS } from "./domain/memory-types.js";
export type {
  MemoryType,
  StoredMemoryType,
  MemoryScope,
  MemoryScopeQuery,
  MemoryConfidence,
  MemoryActor,
  MemoryAuditOp,
  MemoryKey,
  MemorySource,
  MemoryLinks,
  MemoryRecord,
  MemoryAuditEntry,
  MemoryOrganizeRun,
} from "./domain/memory-types.js";
export type {
  MemoryScopeRef,
  MemoryListQuery,
  MemoryListPage,
  MemoryTextQuery,
  MemoryTextHit,
  MemoryFileState,
  MemoryIndexChange,
  MemoryBatchConflict,
  MemoryIndexStore,
} from "./ports/memory-index-store.js";
export { MEMORY_SLUG_PATTERN, normalizeSlug, checkSlug, suggestSlug, dailySlug, isDailySlug } from "./domain/slug.js";
export {
  MEMORY_ERROR_CODES,
  MEMORY_READ_ONLY_MESSAGE,
  slugInvalid,
  quotaExceeded,
  riskHardBlocked,
  bodyTooLarge,
  dailyNotWritable,
  readOnlyMode,
  notFound,
  conflict,
} from "./domain/memory-errors.js";
export type { MemoryToolErrorJson, MemoryErrorCode } from "./domain/memory-errors.js";
export { HIGH_CONFIDENCE_MIN_QUOTE_CHARS, applyEvidenceContract } from "./domain/evidence.js";
export { MEMORY_SECRET_PATTERNS, MEMORY_SOFT_RISK_PATTERNS, screenMemoryContent } from "./domain/risk-filter.js";
export type { MemoryRiskVerdict } from "./domain/risk-filter.js";
export { renderMemoryMarkdown, parseMemoryMarkdown, descriptionFromBody } from "./domain/memory-markdown.js";
export type { MemoryDocument } from "./domain/memory-markdown.js";
export { dailyDateLocal, isDailyArchived, dailyDateFromSlug, dateLocalToEpochDay } from "./domain/daily-dates.js";
export { MEMORY_STOP_WORDS, MEMORY_QUERY_EXPANSIONS, buildMemorySearchTerms, normalizeSearchText, hasCjkText } from "./domain/search-query.js";
export type { MemorySearchTerms, MemoryQueryExpansion } from "./domain/search-query.js";
export {
  MEMORY_RANK_WEIGHTS,
  MEMORY_TRIGRAM_MIN_WORD_HITS,
  bm25Score,
  memoryRankWeight,
  rankMemoryHits,
  shouldQueryTrigram,
} from "./domain/search-ranking.js";
export type { RankedMemoryHit, MemoryRankInputHit } from "./domain/search-ranking.js";
